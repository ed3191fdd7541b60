import { Clock, Duration, Effect, Layer, Option } from "effect"
import { Mailer } from "../../mail/ports.js"
import { sequenceStepEmail } from "../../mail/templates.js"
import { newClaim, runClaimLoop } from "../../shared/claim-loop.js"
import { Transactor } from "../../shared/ports.js"
import { withSpan } from "../../shared/spans.js"
import { EmailContactsRepo } from "../email-list/ports.js"
import { EmailSequencesRepo, type EnrolmentMove } from "./ports.js"
import type { ClaimedEnrolment } from "./schema.js"

/** How the sequence worker of one process runs. */
export interface SequenceWorkerOptions {
  /** How long a claim holds an enrolment before another worker may take it over (after a crash). */
  readonly leaseMs: number
  /** Steps in flight at once in this process. */
  readonly concurrency?: number | undefined
  /** Wait between looks for due steps when nothing was due. */
  readonly idleMs?: number | undefined
}

/** The defaults of {@link SequenceWorkerOptions}. */
export const DEFAULT_SEQUENCE_WORKER = { leaseMs: 60_000, concurrency: 8, idleMs: 5_000 } as const

const MINUTE_MS = 60_000

/** Claims up to `limit` due enrolments of active sequences, held for `leaseMs`. */
export const claimDueEnrolments = (limit: number, leaseMs: number) =>
  Effect.gen(function* () {
    const repo = yield* EmailSequencesRepo
    return yield* repo.claimDue(yield* newClaim(leaseMs), limit)
  }).pipe(withSpan("EmailSequences.claimDue", { attributes: { limit } }))

/**
 * Sends one held enrolment's due step, in one transaction: the contact is checked (and locked, so an unsubscribe
 * either lands before and stops the sequence, or waits for this step), the (enrolment, step) send key is taken,
 * the mail is written to the outbox and the enrolment moves on. A worker that lost its lease changes nothing; the
 * send key makes a second mail of one step impossible whatever the workers do.
 */
export const sendDueStep = (held: ClaimedEnrolment) =>
  Effect.gen(function* () {
    const repo = yield* EmailSequencesRepo
    const contacts = yield* EmailContactsRepo
    const mailer = yield* Mailer
    const transactor = yield* Transactor
    yield* transactor.withTransaction(
      Effect.gen(function* () {
        const found = yield* repo.lockClaimed(held.id, held.claimToken)
        if (Option.isNone(found)) return
        const enrolment = found.value
        const at = new Date(yield* Clock.currentTimeMillis)
        const end = (state: "completed" | "stopped", stopReason: string | null): EnrolmentMove => ({
          state,
          nextStep: enrolment.nextStep,
          nextDueAt: null,
          stopReason,
          at
        })
        const sequence = yield* repo.findForRun(enrolment.sequenceId)
        if (Option.isNone(sequence)) return
        if (sequence.value.state !== "active") {
          yield* repo.release(enrolment.id, enrolment.claimToken)
          return
        }
        const steps = sequence.value.steps
        const step = steps[enrolment.nextStep]
        // The seller shortened the sequence below where this person stood: they have had every step there is.
        if (step === undefined) {
          yield* repo.move(enrolment.id, enrolment.claimToken, end("completed", null))
          return
        }
        const contact = yield* contacts.lock(enrolment.workspaceId, enrolment.email)
        if (Option.isNone(contact) || contact.value.status !== "subscribed") {
          const reason = Option.isNone(contact) ? "removed" : contact.value.status
          yield* repo.move(enrolment.id, enrolment.claimToken, end("stopped", reason))
          return
        }
        if (yield* repo.recordSend(enrolment.id, enrolment.nextStep, at)) {
          yield* mailer.send({
            workspaceId: enrolment.workspaceId,
            to: enrolment.email,
            ...sequenceStepEmail(step),
            toList: true
          })
        }
        const following = steps[enrolment.nextStep + 1]
        yield* repo.move(
          enrolment.id,
          enrolment.claimToken,
          following === undefined
            ? { ...end("completed", null), nextStep: enrolment.nextStep + 1 }
            : {
                state: "active",
                nextStep: enrolment.nextStep + 1,
                // From this send, not the planned time: after an outage a person never gets two steps back to back.
                nextDueAt: new Date(at.getTime() + following.delayMinutes * MINUTE_MS),
                stopReason: null,
                at
              }
        )
      })
    )
  }).pipe(withSpan("EmailSequences.sendDueStep", { attributes: { enrolment: held.id } }))

/** One look: claims up to `concurrency` due enrolments and sends their steps; answers how many it claimed. */
export const runDueSequenceSteps = (options: SequenceWorkerOptions = DEFAULT_SEQUENCE_WORKER) =>
  Effect.gen(function* () {
    const concurrency = options.concurrency ?? DEFAULT_SEQUENCE_WORKER.concurrency
    const claimed = yield* claimDueEnrolments(concurrency, options.leaseMs)
    yield* Effect.forEach(claimed, sendDueStep, { concurrency, discard: true })
    return claimed.length
  })

/**
 * The sequence loop of one process: keeps up to `concurrency` steps going, claims more as they end, and looks
 * again every `idleMs` when nothing is due. A step that fails leaves its claim, and it is retried after the lease.
 */
export const runSequenceWorker = (options: SequenceWorkerOptions = DEFAULT_SEQUENCE_WORKER) =>
  runClaimLoop({
    name: "sequence worker",
    concurrency: options.concurrency ?? DEFAULT_SEQUENCE_WORKER.concurrency,
    claim: (room) => claimDueEnrolments(room, options.leaseMs),
    run: sendDueStep,
    describe: (enrolment: ClaimedEnrolment) => `sequence enrolment ${enrolment.id}`,
    idle: Effect.sleep(Duration.millis(options.idleMs ?? DEFAULT_SEQUENCE_WORKER.idleMs)),
    // A step is one short transaction: finishing it on shutdown beats sending it again after the lease.
    finishOnStop: true
  })

/** A layer that keeps `runSequenceWorker` running while it is alive. */
export const SequenceWorkerLive = (options: SequenceWorkerOptions = DEFAULT_SEQUENCE_WORKER) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      if (options.leaseMs < 2_000 || (options.concurrency ?? 1) < 1) {
        return yield* Effect.dieMessage("the sequence lease must be at least 2 s and the concurrency at least 1")
      }
      yield* Effect.logInfo(
        `sequence worker: up to ${options.concurrency ?? DEFAULT_SEQUENCE_WORKER.concurrency} steps at once, lease ${options.leaseMs} ms`
      )
      yield* Effect.forkScoped(runSequenceWorker(options))
    })
  )
