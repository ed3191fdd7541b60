import { Clock, Duration, Effect, Either, Layer, Schedule } from "effect"
import { type AskAnswer, CustomAiAsking } from "../../custom-ai/asking.js"
import { newClaim, runClaimLoop } from "../../shared/claim-loop.js"
import { withSpan } from "../../shared/spans.js"
import { HttpSender, type SendFailed, type SendOutcome } from "../ports.js"
import {
  ASK_CALLBACK_ANSWER_WAIT_MS,
  ASK_CALLBACK_DEADLINE_MS,
  ASK_CALLBACK_MAX_ATTEMPTS,
  ASK_CALLBACK_RETENTION_MS,
  ASK_CALLBACK_RETRY_DELAYS_MS,
  type AskCallbackWorkerOptions,
  DEFAULT_ASK_CALLBACK_WORKER
} from "./policy.js"
import { AskCallbackQueue, type AskCallbackStep, type ClaimedAskCallback } from "./queue.js"

/** What a callback posts: the answer, or why there is none. */
export type AskCallbackBody =
  | {
      readonly ok: true
      readonly answer: string
      readonly chat_id: string
      readonly message_id: string
      readonly sources: ReadonlyArray<{ readonly title: string; readonly url: string | null }>
    }
  | { readonly ok: false; readonly error: string; readonly chat_id: string; readonly message_id: string }

const answered = (callback: ClaimedAskCallback, answer: AskAnswer): AskCallbackBody => ({
  ok: true,
  answer: answer.answer ?? "",
  chat_id: callback.chatId,
  message_id: callback.messageId,
  sources: (answer.sources ?? []).map((source) => ({ title: source.sourceTitle, url: source.url }))
})

const refused = (callback: ClaimedAskCallback, error: string): AskCallbackBody => ({
  ok: false,
  error,
  chat_id: callback.chatId,
  message_id: callback.messageId
})

/**
 * The body to post, or `undefined` while the answer still runs. A failed answer and an answer whose Custom AI was
 * deleted meanwhile (its chat went with it) are posted as `{ ok: false, error }`, so the automation tool's step
 * ends with the reason instead of waiting for a callback that never comes.
 */
const bodyOf = (callback: ClaimedAskCallback, now: number) =>
  Effect.flatMap(CustomAiAsking, (asking) =>
    asking.messageAnswer(callback).pipe(
      Effect.map((answer): AskCallbackBody | undefined => {
        if (answer.status === "answered") return answered(callback, answer)
        return now - callback.createdAt.getTime() > ASK_CALLBACK_ANSWER_WAIT_MS
          ? refused(callback, "the answer did not finish within an hour; ask again")
          : undefined
      }),
      Effect.catchTags({
        Unreachable: (error) => Effect.succeed(refused(callback, error.message)),
        NotFound: (error) => Effect.succeed(refused(callback, error.message))
      })
    )
  )

/** How one send went: through (2xx), gone (410: the hook was removed), worth another try, or refused for good. */
type Judged = { readonly _tag: "delivered" } | { readonly _tag: "gone" | "retry" | "failed"; readonly error: string }

const judge = (sent: Either.Either<SendOutcome, SendFailed>): Judged => {
  if (Either.isLeft(sent)) {
    const error = `${sent.left.reason}: ${sent.left.message}`
    // An address that is no URL stays one; a blocked address or a network failure may be gone by the next try.
    return sent.left.reason === "invalid-url" ? { _tag: "failed", error } : { _tag: "retry", error }
  }
  const { status } = sent.right
  if (status >= 200 && status < 300) return { _tag: "delivered" }
  const error = `the hook answered ${status}`
  if (status === 410) return { _tag: "gone", error }
  return status === 408 || status === 429 || status >= 500 ? { _tag: "retry", error } : { _tag: "failed", error }
}

/** Where a send leaves the callback: ended, or due again after the next retry delay. */
const stepAfter = (callback: ClaimedAskCallback, judged: Judged, now: number): AskCallbackStep => {
  const attempts = callback.attempts + 1
  const at = new Date(now)
  if (judged._tag === "delivered") return { _tag: "ended", status: "delivered", attempts, lastError: null, at }
  if (judged._tag === "retry" && attempts < ASK_CALLBACK_MAX_ATTEMPTS) {
    const delay = ASK_CALLBACK_RETRY_DELAYS_MS[attempts - 1] ?? 0
    return { _tag: "later", at: new Date(now + delay), attempts, lastError: judged.error }
  }
  return { _tag: "ended", status: judged._tag === "gone" ? "gone" : "failed", attempts, lastError: judged.error, at }
}

/**
 * Handles one claimed callback: looks at its answer (still running: looks again after `answerPollMs`), posts it to
 * the hook address through the SSRF-safe sender, and records how that went. Logs name ids and statuses only, never
 * the question or the answer.
 */
export const deliverAskCallback = (
  callback: ClaimedAskCallback,
  options: Pick<AskCallbackWorkerOptions, "answerPollMs"> = DEFAULT_ASK_CALLBACK_WORKER
) =>
  Effect.gen(function* () {
    const queue = yield* AskCallbackQueue
    const body = yield* bodyOf(callback, yield* Clock.currentTimeMillis)
    if (body === undefined) {
      const at = new Date((yield* Clock.currentTimeMillis) + options.answerPollMs)
      yield* queue.record(callback.id, callback.claimToken, {
        _tag: "later",
        at,
        attempts: callback.attempts,
        lastError: null
      })
      return
    }
    const sender = yield* HttpSender
    const sent = yield* Effect.either(
      sender.send({
        url: callback.callbackUrl,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      })
    )
    const judged = judge(sent)
    const step = stepAfter(callback, judged, yield* Clock.currentTimeMillis)
    const held = yield* queue.record(callback.id, callback.claimToken, step)
    if (!held) {
      yield* Effect.logWarning(`ask callback ${callback.id}: its claim ran out while sending; another worker holds it`)
    } else if (step._tag === "ended" && step.status !== "delivered") {
      yield* Effect.logWarning(
        `ask callback ${callback.id} (answer ${callback.messageId}) ended ${step.status} after ${step.attempts} sends: ${step.lastError}`
      )
    }
  }).pipe(withSpan("AskCallbacks.deliver", { attributes: { callback: callback.id } }))

/** Claims up to `limit` due callbacks with a fresh token and a lease of `leaseMs`. */
const claimDueCallbacks = (limit: number, leaseMs: number) =>
  Effect.flatMap(newClaim(leaseMs), (claim) =>
    Effect.flatMap(AskCallbackQueue, (queue) => queue.claimDue(claim, limit))
  )

/** One look at the queue: claims up to `concurrency` due callbacks and handles them; answers how many were claimed. */
export const runDueAskCallbacks = (options: AskCallbackWorkerOptions = DEFAULT_ASK_CALLBACK_WORKER) =>
  Effect.gen(function* () {
    const claimed = yield* claimDueCallbacks(options.concurrency, options.leaseMs)
    yield* Effect.forEach(
      claimed,
      (callback) =>
        deliverAskCallback(callback, options).pipe(
          Effect.catchAllCause((cause) => Effect.logError(`ask callback ${callback.id} failed`, cause))
        ),
      { concurrency: options.concurrency, discard: true }
    )
    return claimed.length
  })

/**
 * The callback loop of one process: keeps up to `concurrency` callbacks going, claims more as they end, and looks
 * again after `idleMs` when nothing is due. Ended callbacks are deleted after a week.
 */
export const runAskCallbackWorker = (options: AskCallbackWorkerOptions = DEFAULT_ASK_CALLBACK_WORKER) =>
  Effect.gen(function* () {
    const queue = yield* AskCallbackQueue
    const purge = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      queue.purgeEnded(new Date(now - ASK_CALLBACK_RETENTION_MS))
    )
    yield* purge.pipe(
      Effect.catchAllCause((cause) => Effect.logError("ask callbacks: purging ended ones failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.hours(1))),
      Effect.forkScoped
    )
    return yield* runClaimLoop({
      name: "ask callback worker",
      concurrency: options.concurrency,
      claim: (room) => claimDueCallbacks(room, options.leaseMs),
      run: (callback) => deliverAskCallback(callback, options),
      describe: (callback) => `ask callback ${callback.id}`,
      idle: Effect.sleep(Duration.millis(options.idleMs))
    })
  })

/** A layer that keeps `runAskCallbackWorker` running while it is alive. */
export const AskCallbackWorkerLive = (options: AskCallbackWorkerOptions = DEFAULT_ASK_CALLBACK_WORKER) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      if (options.leaseMs <= ASK_CALLBACK_DEADLINE_MS || options.concurrency < 1) {
        return yield* Effect.dieMessage(
          `the ask callback lease must be longer than the ${ASK_CALLBACK_DEADLINE_MS} ms send deadline and the concurrency at least 1`
        )
      }
      yield* Effect.forkScoped(runAskCallbackWorker(options))
    })
  )
