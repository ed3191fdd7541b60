import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../../shared/paging.js"
import type { CreatedRange } from "../../shared/paging.js"
import type { ClaimedEnrolment, EmailSequence, EnrolmentState, SequenceView } from "./schema.js"

/** A claim to take: the token and the lease enrolments are held with. */
export interface EnrolmentClaim {
  readonly now: Date
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** A new enrolment: its first step is due at `nextDueAt`. */
export interface NewEnrolment {
  readonly id: string
  readonly workspaceId: string
  readonly sequenceId: string
  readonly email: string
  readonly nextDueAt: Date
  readonly startedAt: Date
}

/** Where a held enrolment goes after one look; `nextDueAt` null when it ended. */
export interface EnrolmentMove {
  readonly state: EnrolmentState
  readonly nextStep: number
  readonly nextDueAt: Date | null
  readonly stopReason: string | null
  readonly at: Date
}

/**
 * Stored sequences and enrolments. An enrolment is keyed by (sequence, email), so a person goes through a sequence
 * once; it is claimed with a token and a lease like the other queues, and each (enrolment, step) has a send key.
 */
export class EmailSequencesRepo extends Context.Tag("svc/store/EmailSequencesRepo")<
  EmailSequencesRepo,
  {
    readonly insert: (sequence: EmailSequence) => Effect.Effect<void>
    /** Writes the name, state, steps, start triggers and update time. */
    readonly save: (sequence: EmailSequence) => Effect.Effect<void>
    /** A sequence under a row lock, for a change computed from it (inside a transaction). */
    readonly lock: (workspaceId: string, id: string) => Effect.Effect<Option.Option<EmailSequence>>
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<SequenceView>>
    /** Deletes a sequence with its enrolments; false when there was none. */
    readonly remove: (workspaceId: string, id: string) => Effect.Effect<boolean>
    readonly count: (workspaceId: string) => Effect.Effect<number>
    /** A page of the store's sequences, newest first (keyset on created_at, id). */
    readonly listPage: (
      workspaceId: string,
      range: CreatedRange,
      page: PageRequest
    ) => Effect.Effect<Page<SequenceView>>
    /** The active sequences any of these tags or products start, with their first step's wait. */
    readonly startedBy: (
      workspaceId: string,
      starts: { readonly tagIds: ReadonlyArray<string>; readonly productIds: ReadonlyArray<string> }
    ) => Effect.Effect<ReadonlyArray<{ readonly sequenceId: string; readonly firstDelayMinutes: number }>>
    /** Enrols a person unless already enrolled in that sequence (a unique key decides); false when they were. */
    readonly enrol: (enrolment: NewEnrolment) => Effect.Effect<boolean>
    /** Stops every active enrolment of a person; answers how many. */
    readonly stopFor: (workspaceId: string, email: string, reason: string, at: Date) => Effect.Effect<number>
    /** Claims up to `limit` due enrolments of active sequences (a lease that ended counts as due). */
    readonly claimDue: (claim: EnrolmentClaim, limit: number) => Effect.Effect<ReadonlyArray<ClaimedEnrolment>>
    /** The enrolment under a row lock, if `claimToken` still holds it (inside the step's transaction). */
    readonly lockClaimed: (id: string, claimToken: string) => Effect.Effect<Option.Option<ClaimedEnrolment>>
    /** A sequence by id alone, for the worker. */
    readonly findForRun: (id: string) => Effect.Effect<Option.Option<EmailSequence>>
    /** Records that a step was mailed; false when it already was (the step must not be mailed again). */
    readonly recordSend: (enrolmentId: string, step: number, at: Date) => Effect.Effect<boolean>
    /** Moves a held enrolment on and releases it; false when `claimToken` no longer holds it. */
    readonly move: (id: string, claimToken: string, move: EnrolmentMove) => Effect.Effect<boolean>
    /** Gives a held enrolment back as it stands (due again at its step's time); false when no longer held. */
    readonly release: (id: string, claimToken: string) => Effect.Effect<boolean>
  }
>() {}
