import type * as HttpClient from "@effect/platform/HttpClient"
import * as AnthropicClient from "@effect/ai-anthropic/AnthropicClient"
import * as AnthropicLanguageModel from "@effect/ai-anthropic/AnthropicLanguageModel"
import type { ModelAnswer, ModelPrompt, ModelRefused, ModelUnreachable } from "@svc/core/custom-ai"
import { Effect, Option, type Scope } from "effect"
import { generateWith } from "./language-model.js"
import { modelFor } from "./openai-compatible.js"
import { type ChatModelSettings, OUTPUT_TOKENS } from "./settings.js"

/** Anthropic's Messages API (`POST {base}/v1/messages`), through `@effect/ai-anthropic`. */
export const anthropicGenerate = (
  settings: ChatModelSettings
): Effect.Effect<
  (prompt: ModelPrompt) => Effect.Effect<ModelAnswer, ModelUnreachable | ModelRefused>,
  never,
  HttpClient.HttpClient | Scope.Scope
> =>
  Effect.gen(function* () {
    const client = yield* AnthropicClient.make({
      apiKey: Option.getOrUndefined(settings.apiKey),
      apiUrl: settings.baseUrl
    })
    const model = (mode: ModelPrompt["mode"]) =>
      AnthropicLanguageModel.make({
        model: modelFor(settings, mode),
        config: { max_tokens: OUTPUT_TOKENS[mode] }
      }).pipe(
        Effect.map((service) => ({ name: modelFor(settings, mode), model: service })),
        Effect.provideService(AnthropicClient.AnthropicClient, client)
      )
    return generateWith(settings, { standard: yield* model("standard"), max: yield* model("max") })
  })
