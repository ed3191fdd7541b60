import { ChatModel, ModelRefused } from "@svc/core/custom-ai"
import { Effect, Layer, Option } from "effect"

/**
 * No language model (`SVC_AI_PROVIDER=none`, the default): Custom AIs answer extractively from their knowledge and
 * never call `generate`. A call that reaches it anyway is refused, never answered with made-up text.
 */
export const NoChatModelLive = Layer.succeed(ChatModel, {
  description: Option.none(),
  generate: () => Effect.fail(new ModelRefused({ message: "no language model is configured (SVC_AI_PROVIDER=none)" })),
  embed: Option.none()
})
