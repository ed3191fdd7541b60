import { Clock, Duration, Effect, Either, Option, Ref } from "effect"
import { Credits } from "../credits/service.js"
import { CUSTOM_AI_MESSAGE_COST } from "../credits/costs.js"
import { Transactor } from "../shared/ports.js"
import { now } from "../shared/time.js"
import { withSpan } from "../shared/spans.js"
import {
  ASK_MAX_ATTEMPTS,
  AskJobs,
  AskSettings,
  askRetryDelayMs,
  type ClaimedAskJob,
  modelDeadlineMs
} from "./ask-jobs.js"
import { ChatModel, type ModelRefused, ModelUnreachable } from "./chat-model.js"
import { CustomAiChatsRepo, type MessageOutcome } from "./chats.js"
import { CustomAiKnowledge } from "./knowledge.js"
import { CustomAisRepo } from "./ports.js"
import { buildPrompt, PROMPT_PASSAGES_MAX, PROMPT_TURNS_MAX, sourcesOf } from "./prompt.js"

/**
 * Whether someone still waits on a run: `ask` waits while its budget lasts (`waiting`), then leaves the run to go
 * on alone (`detached`). A run that fails while its caller waits reports to it (`settled`) instead of retrying.
 */
export type Attendance = "waiting" | "detached" | "settled"

const refusedText = (error: ModelRefused) =>
  `The language model refused the request: ${error.message}. Nothing was charged. The server's AI settings ` +
  "(SVC_AI_PROVIDER, its key and model) need fixing; asking again will not help until they are."

const unreachableText = (error: ModelUnreachable, attempts: number) => {
  const wait = error.retryAfterSeconds ?? 30
  const tried = attempts > 1 ? ` (tried ${attempts} times)` : ""
  return `The language model did not answer${tried}: ${error.message}. Nothing was charged. Try again in about ${wait} seconds with svc_ask_custom_ai (same chatId).`
}

/**
 * Runs one claimed ask job: charges its credits (idempotent by the message id, so a job run again after a crash is
 * never charged twice), asks the model with the chat and the matching knowledge, and records the answer. A failed
 * model call gives the credits back; an unreachable model is tried again later (up to {@link ASK_MAX_ATTEMPTS} runs)
 * unless a caller is waiting to hear about it.
 */
export class AskJobRunner extends Effect.Service<AskJobRunner>()("svc/custom-ai/AskJobRunner", {
  dependencies: [CustomAiKnowledge.Default, Credits.Default],
  effect: Effect.gen(function* () {
    const jobs = yield* AskJobs
    const chats = yield* CustomAiChatsRepo
    const customAis = yield* CustomAisRepo
    const model = yield* ChatModel
    const knowledge = yield* CustomAiKnowledge
    const credits = yield* Credits
    const transactor = yield* Transactor
    const { leaseMs } = yield* AskSettings
    const deadline = Duration.millis(modelDeadlineMs(leaseMs))

    const lost = (job: ClaimedAskJob) =>
      Effect.logDebug(`ask job ${job.messageId}: claim lost to another runner; its result stands`)

    /** Ends the job and its message together, unless another runner holds it now. */
    const end = (job: ClaimedAskJob, outcome: MessageOutcome, release: boolean) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          if (!(yield* jobs.complete(job.messageId, job.claimToken))) return yield* lost(job)
          if (release) yield* credits.release(job.accountId, job.messageId)
          yield* chats.finishMessage(job.messageId, outcome)
        })
      )

    const failed = (job: ClaimedAskJob, error: string, release: boolean) =>
      Effect.flatMap(now, (at) => end(job, { status: "failed", error, at }, release))

    /** Puts the job back for a later run and gives the credits back meanwhile (the next run charges again). */
    const retryLater = (job: ClaimedAskJob, error: ModelUnreachable) =>
      Effect.gen(function* () {
        const at = yield* Clock.currentTimeMillis
        const runAfter = new Date(at + askRetryDelayMs(job.attempts, error.retryAfterSeconds))
        yield* transactor.withTransaction(
          Effect.gen(function* () {
            if (!(yield* jobs.retryAt(job.messageId, job.claimToken, runAfter))) return yield* lost(job)
            yield* credits.release(job.accountId, job.messageId)
          })
        )
        yield* Effect.logInfo(
          `ask job ${job.messageId}: model unreachable on run ${job.attempts} (${error.message}); next run after ${runAfter.toISOString()}`
        )
      })

    const askModel = (job: ClaimedAskJob, customAi: { readonly name: string; readonly instructions: string }) =>
      Effect.gen(function* () {
        const messages = yield* chats.turnsBefore(job.chatId, job.messageId, PROMPT_TURNS_MAX)
        const question = [...messages].reverse().find((message) => message.role === "user")?.text ?? ""
        // The Custom AI can be deleted meanwhile (taking this job with it): then nothing will record the answer.
        const passages = yield* knowledge
          .search(job.workspaceId, job.customAiId, question, { limit: PROMPT_PASSAGES_MAX })
          .pipe(Effect.catchTag("NotFound", () => Effect.succeed([])))
        const answer = yield* model.generate(buildPrompt(customAi, passages, messages, job.mode)).pipe(
          Effect.timeoutFail({
            duration: deadline,
            onTimeout: () =>
              new ModelUnreachable({
                message: `it took longer than ${Math.round(Duration.toSeconds(deadline))} seconds`
              })
          })
        )
        return { answer, sources: sourcesOf(passages) }
      })

    /** Runs the job to its end (or its next try); `attendance` is the waiting caller's, when one waits. */
    const run = (job: ClaimedAskJob, attendance?: Ref.Ref<Attendance>) =>
      Effect.gen(function* () {
        if (job.attempts > ASK_MAX_ATTEMPTS) {
          return yield* failed(
            job,
            `The answer could not be finished after ${ASK_MAX_ATTEMPTS} runs. Nothing was charged. Ask again with svc_ask_custom_ai (same chatId).`,
            true
          )
        }
        const customAi = yield* customAis.find(job.workspaceId, job.customAiId)
        // Deleting the Custom AI deleted its chats, their messages and this job with them: nothing is left to do.
        if (Option.isNone(customAi)) return yield* jobs.complete(job.messageId, job.claimToken)
        const cost = CUSTOM_AI_MESSAGE_COST[job.mode]
        // Charged only while this run holds the job: deleting the Custom AI locks its jobs to give their charges
        // back, so a charge cannot slip in after that.
        const paid = yield* Effect.either(
          transactor.withTransaction(
            Effect.gen(function* () {
              if (!(yield* jobs.lockHeld(job.messageId, job.claimToken))) return Option.none()
              return Option.some(
                yield* credits.charge({
                  accountId: job.accountId,
                  callId: job.messageId,
                  tenths: cost,
                  reason: `Custom AI message (${job.mode}) to ${job.customAiId}`
                })
              )
            })
          )
        )
        if (Either.isLeft(paid)) return yield* failed(job, paid.left.message, false)
        if (Option.isNone(paid.right)) return yield* lost(job)
        const result = yield* Effect.either(askModel(job, customAi.value))
        if (Either.isRight(result)) {
          const at = yield* now
          return yield* end(
            job,
            {
              status: "answered",
              text: result.right.answer.text,
              sources: result.right.sources,
              model: result.right.answer.model,
              chargedTenths: paid.right.value.chargedTenths,
              at
            },
            false
          )
        }
        const error = result.left
        if (error._tag === "ModelRefused") return yield* failed(job, refusedText(error), true)
        const someoneWaits =
          attendance === undefined
            ? false
            : yield* Ref.modify(attendance, (state): readonly [boolean, Attendance] =>
                state === "waiting" ? [true, "settled"] : [false, state]
              )
        if (!someoneWaits && job.attempts < ASK_MAX_ATTEMPTS) return yield* retryLater(job, error)
        return yield* failed(job, unreachableText(error, job.attempts), true)
      }).pipe(
        Effect.asVoid,
        // A run cut off by a clean shutdown hands its job back at once instead of leaving it to wait out the lease.
        Effect.onInterrupt(() =>
          Effect.flatMap(now, (at) => jobs.retryAt(job.messageId, job.claimToken, at)).pipe(
            Effect.catchAllCause(() => Effect.void)
          )
        ),
        withSpan("CustomAi.runAskJob", { attributes: { message: job.messageId, attempt: job.attempts } })
      )

    return { run } as const
  })
}) {}
