import { Effect } from "effect"
import { Ids } from "../../shared/ports.js"
import type { EmailContact } from "../email-list/email-contact.js"
import { EmailSequencesRepo } from "./ports.js"

const MINUTE_MS = 60_000

/**
 * Enrols a contact in the active sequences that these tags or products start, once per sequence (a second start
 * tag, or the same one again, never restarts a sequence). Only a `subscribed` contact is enrolled: someone who is
 * not on the list, or who unsubscribed, bounced or complained, is never put in a sequence, so never mailed by one.
 * Runs inside the caller's transaction (the tagging or the sale), so the enrolment commits with its cause.
 */
export const makeSequenceEnroller = Effect.gen(function* () {
  const repo = yield* EmailSequencesRepo
  const ids = yield* Ids

  /** Answers how many sequences the contact entered now. */
  return (
    contact: EmailContact,
    starts: { readonly tagIds?: ReadonlyArray<string>; readonly productIds?: ReadonlyArray<string> },
    now: Date
  ) =>
    Effect.gen(function* () {
      const tagIds = starts.tagIds ?? []
      const productIds = starts.productIds ?? []
      if (contact.status !== "subscribed" || tagIds.length + productIds.length === 0) return 0
      const started = yield* repo.startedBy(contact.workspaceId, { tagIds, productIds })
      let entered = 0
      for (const sequence of started) {
        const added = yield* repo.enrol({
          id: yield* ids.make("enr_"),
          workspaceId: contact.workspaceId,
          sequenceId: sequence.sequenceId,
          email: contact.email,
          nextDueAt: new Date(now.getTime() + sequence.firstDelayMinutes * MINUTE_MS),
          startedAt: now
        })
        if (added) entered++
      }
      return entered
    })
})
