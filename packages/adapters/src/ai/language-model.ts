import type * as LanguageModel from "@effect/ai/LanguageModel"
import type { ModelAnswer, ModelPrompt, ModelRefused, ModelUnreachable } from "@svc/core/custom-ai"
import { Effect } from "effect"
import { fromAiError } from "./errors.js"
import { withDeadline } from "./provider-http.js"
import type { ChatModelSettings } from "./settings.js"

/** The two models a provider answers with: the standard one, and the one `mode: "max"` asks for. */
export interface ModelPair {
  readonly standard: { readonly name: string; readonly model: LanguageModel.Service }
  readonly max: { readonly name: string; readonly model: LanguageModel.Service }
}

/**
 * Answers through an `@effect/ai` language model: the system prompt as the system message, the turns as user and
 * assistant messages. The answer is the model's text only; tool calls are never offered.
 */
export const generateWith =
  (settings: ChatModelSettings, models: ModelPair) =>
  (prompt: ModelPrompt): Effect.Effect<ModelAnswer, ModelUnreachable | ModelRefused> => {
    const chosen = models[prompt.mode]
    return chosen.model
      .generateText({
        prompt: [
          { role: "system", content: prompt.system },
          ...prompt.turns.map((turn) => ({ role: turn.role, content: turn.text }))
        ]
      })
      .pipe(
        Effect.map((response): ModelAnswer => ({ text: response.text, model: chosen.name })),
        Effect.mapError((error) => fromAiError(settings.provider, error)),
        withDeadline(settings)
      )
  }
