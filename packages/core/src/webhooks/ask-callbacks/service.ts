import { Clock, Effect } from "effect"
import type { AskMode } from "../../custom-ai/ask-jobs.js"
import { type AskAnswer, CustomAiAsking } from "../../custom-ai/asking.js"
import { Ids } from "../../shared/ports.js"
import { withSpan } from "../../shared/spans.js"
import { checkHookTarget, type InstantHookPolicy } from "../instant-hooks/service.js"
import { AskCallbackQueue } from "./queue.js"

/** A question whose answer goes to the automation tool's hook address once it is ready. */
export interface AskWithCallbackInput {
  readonly accountId: string
  readonly workspaceId: string
  /** Left out: the chat's own Custom AI, else the workspace's default assistant. */
  readonly customAiId?: string | undefined
  readonly message: string
  readonly mode?: AskMode | undefined
  readonly chatId?: string | undefined
  /** Must be an https address on one of the automation tool's hook domains. */
  readonly callbackUrl: string
}

/** The ask as it stands when the step answers (usually `running`), and the callback that will report it. */
export interface AskWithCallbackAnswer extends AskAnswer {
  readonly callbackId: string
}

/**
 * The automation tool's "Ask a Custom AI" step: asks without waiting (the answer runs in the background as any ask,
 * on the same credits) and queues a durable callback that posts the answer to the caller's hook address once it is
 * ready (`runAskCallbackWorker`).
 */
export class AskCallbacks extends Effect.Service<AskCallbacks>()("svc/webhooks/AskCallbacks", {
  dependencies: [CustomAiAsking.Default],
  effect: Effect.gen(function* () {
    const asking = yield* CustomAiAsking
    const queue = yield* AskCallbackQueue
    const ids = yield* Ids

    /**
     * Checks the callback address (field `callback_url`) before anything is asked or charged, asks, and queues the
     * callback. Fails as `CustomAiAsking.ask` does (invalid, not found, forbidden when the credits cannot pay).
     */
    const ask = (input: AskWithCallbackInput, policy: InstantHookPolicy) =>
      Effect.gen(function* () {
        const callbackUrl = yield* checkHookTarget(input.callbackUrl, policy, "callback_url")
        const callbackId = yield* ids.make("acb_")
        const answer = yield* asking.ask({
          accountId: input.accountId,
          workspaceId: input.workspaceId,
          customAiId: input.customAiId,
          message: input.message,
          mode: input.mode,
          chatId: input.chatId,
          waitMs: 0,
          // Queued with the ask itself, so an ask that was charged always reports back.
          alongside: (asked) =>
            Effect.flatMap(Clock.currentTimeMillis, (now) =>
              queue.insert({
                id: callbackId,
                messageId: asked.messageId,
                chatId: asked.chatId,
                accountId: input.accountId,
                workspaceId: input.workspaceId,
                customAiId: asked.customAiId,
                callbackUrl,
                createdAt: new Date(now)
              })
            )
        })
        return { ...answer, callbackId } satisfies AskWithCallbackAnswer
      }).pipe(withSpan("AskCallbacks.ask"))

    return { ask } as const
  })
}) {}
