import { Clock, Duration, Effect, Either, Layer, Schedule } from "effect"
import { newClaim, runClaimLoop } from "../shared/claim-loop.js"
import { withSpan } from "../shared/spans.js"
import { composeMail } from "./compose.js"
import type { MailNotSent } from "./errors.js"
import { type ClaimedMail, MailOutbox, type MailStep } from "./outbox.js"
import {
  DEFAULT_MAIL_WORKER,
  MAIL_MAX_AGE_MS,
  MAIL_PURGE_BATCH,
  MAIL_RETENTION_MS,
  MAIL_MAX_ATTEMPTS,
  MAIL_RETRY_DELAYS_MS,
  type MailWorkerOptions
} from "./policy.js"
import { MailingList, MailTransport } from "./ports.js"

/** Where a send leaves the message: sent, failed for good, or due again after the next retry delay. */
const stepAfter = (mail: ClaimedMail, sent: Either.Either<void, MailNotSent>, now: number): MailStep => {
  const attempts = mail.attempts + 1
  const at = new Date(now)
  if (Either.isRight(sent)) return { _tag: "sent", at, attempts }
  const lastError = sent.left.message
  if (!sent.left.permanent && attempts < MAIL_MAX_ATTEMPTS) {
    const delay = MAIL_RETRY_DELAYS_MS[attempts - 1] ?? 0
    return { _tag: "later", at: new Date(now + delay), attempts, lastError }
  }
  return {
    _tag: "failed",
    at,
    attempts,
    lastError: sent.left.permanent ? lastError : `gave up after ${attempts} tries; the last: ${lastError}`
  }
}

/**
 * Sends one claimed message and records how it went. A permanent refusal of the address itself (e.g. 550) also
 * marks it bounced on the workspace's email list, so list mail stops going to it. Logs name ids and outcomes only,
 * never the text.
 */
export const deliverMail = (mail: ClaimedMail, options: Pick<MailWorkerOptions, "publicBase">) =>
  Effect.gen(function* () {
    const outbox = yield* MailOutbox
    const startedAt = yield* Clock.currentTimeMillis
    if (startedAt - mail.createdAt.getTime() > MAIL_MAX_AGE_MS) {
      yield* outbox.record(mail.id, mail.claimToken, {
        _tag: "failed",
        at: new Date(startedAt),
        attempts: mail.attempts,
        lastError: `not sent within ${MAIL_MAX_AGE_MS / 86_400_000} days of being queued; too late to send`
      })
      return
    }
    const outgoing = yield* composeMail(mail, options.publicBase)
    const sent = yield* Effect.either((yield* MailTransport).send(outgoing))
    const step = stepAfter(mail, sent, yield* Clock.currentTimeMillis)
    const held = yield* outbox.record(mail.id, mail.claimToken, step)
    if (!held) {
      yield* Effect.logWarning(`mail ${mail.id}: its claim ran out while sending; another worker holds it`)
      return
    }
    if (step._tag === "failed") {
      yield* Effect.logWarning(`mail ${mail.id} (${mail.kind}) failed after ${step.attempts} tries: ${step.lastError}`)
      if (Either.isLeft(sent) && sent.left.permanent && sent.left.recipientRefused) {
        const bounced = yield* (yield* MailingList).optOut(mail.workspaceId, mail.to, "bounced")
        if (bounced.changed) yield* Effect.logInfo(`mail ${mail.id}: its address is now bounced on the email list`)
      }
    }
  }).pipe(withSpan("MailWorker.deliver", { attributes: { mail: mail.id } }))

/** Claims up to `limit` due messages with a fresh token and a lease of `leaseMs`. */
const claimDueMail = (limit: number, leaseMs: number) =>
  Effect.flatMap(newClaim(leaseMs), (claim) => Effect.flatMap(MailOutbox, (outbox) => outbox.claimDue(claim, limit)))

/** One look at the outbox: claims up to `concurrency` due messages and sends them; answers how many were claimed. */
export const runDueMail = (options: MailWorkerOptions) =>
  Effect.gen(function* () {
    const claimed = yield* claimDueMail(options.concurrency, options.leaseMs)
    yield* Effect.forEach(
      claimed,
      (mail) =>
        deliverMail(mail, options).pipe(
          Effect.catchAllCause((cause) => Effect.logError(`mail ${mail.id} failed`, cause))
        ),
      { concurrency: options.concurrency, discard: true }
    )
    return claimed.length
  })

/**
 * The mail loop of one process: keeps up to `concurrency` messages going, claims more as sends end, and looks again
 * after `idleMs` when nothing is due. A send on the wire when the loop stops is finished and recorded, so it is not
 * sent again after the lease.
 */
export const runMailWorker = (options: MailWorkerOptions) =>
  runClaimLoop({
    name: "mail worker",
    concurrency: options.concurrency,
    claim: (room) => claimDueMail(room, options.leaseMs),
    run: (mail) => deliverMail(mail, options),
    describe: (mail) => `mail ${mail.id}`,
    idle: Effect.sleep(Duration.millis(options.idleMs)),
    finishOnStop: true
  })

/** A layer that keeps `runMailWorker` running while it is alive (started only when a transport is configured). */
export const MailWorkerLive = (options: Pick<MailWorkerOptions, "publicBase"> & Partial<MailWorkerOptions>) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const resolved: MailWorkerOptions = { ...DEFAULT_MAIL_WORKER, ...options }
      if (resolved.concurrency < 1 || resolved.leaseMs < 10_000) {
        return yield* Effect.dieMessage(
          "the mail worker needs a concurrency of at least 1 and a lease of at least 10 s"
        )
      }
      yield* Effect.logInfo(
        `mail worker: up to ${resolved.concurrency} sends at once, lease ${resolved.leaseMs} ms, links under ${resolved.publicBase}`
      )
      yield* Effect.forkScoped(runMailWorker(resolved))
    })
  )

/** Deletes the messages queued more than `MAIL_RETENTION_MS` ago, in batches; answers how many went. */
export const purgeOldMail = Effect.gen(function* () {
  const outbox = yield* MailOutbox
  const cutoff = new Date((yield* Clock.currentTimeMillis) - MAIL_RETENTION_MS)
  let purged = 0
  while (true) {
    const batch = yield* outbox.purgeBefore(cutoff, MAIL_PURGE_BATCH)
    purged += batch
    if (batch < MAIL_PURGE_BATCH) return purged
  }
}).pipe(withSpan("MailOutbox.purge"))

/**
 * A layer that runs `purgeOldMail` now and then every `every` (default one hour) while alive: with or without SMTP,
 * so a development outbox does not grow for ever.
 */
export const MailPurgeLive = (every: Duration.DurationInput = Duration.hours(1)) =>
  Layer.scopedDiscard(
    Effect.forkScoped(
      purgeOldMail.pipe(
        Effect.tap((purged) =>
          purged > 0 ? Effect.logInfo(`purged ${purged} outbox messages older than 30 days`) : Effect.void
        ),
        Effect.catchAllCause((cause) => Effect.logError("mail purge failed", cause)),
        Effect.repeat(Schedule.spaced(every)),
        Effect.asVoid
      )
    )
  )
