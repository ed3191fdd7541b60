import type * as HttpClient from "@effect/platform/HttpClient"
import * as OpenAiClient from "@effect/ai-openai/OpenAiClient"
import * as OpenAiLanguageModel from "@effect/ai-openai/OpenAiLanguageModel"
import type { ModelAnswer, ModelPrompt, ModelRefused, ModelUnreachable } from "@svc/core/custom-ai"
import { Effect, Option, type Scope } from "effect"
import { generateWith } from "./language-model.js"
import { modelFor } from "./openai-compatible.js"
import { type ChatModelSettings, OUTPUT_TOKENS } from "./settings.js"

/** OpenAI's own API, through `@effect/ai-openai` (its language model speaks the Responses API, `POST {base}/responses`). */
export const openAiGenerate = (
  settings: ChatModelSettings
): Effect.Effect<
  (prompt: ModelPrompt) => Effect.Effect<ModelAnswer, ModelUnreachable | ModelRefused>,
  never,
  HttpClient.HttpClient | Scope.Scope
> =>
  Effect.gen(function* () {
    const client = yield* OpenAiClient.make({
      apiKey: Option.getOrUndefined(settings.apiKey),
      apiUrl: settings.baseUrl
    })
    const model = (mode: ModelPrompt["mode"]) =>
      OpenAiLanguageModel.make({
        model: modelFor(settings, mode),
        config: { max_output_tokens: OUTPUT_TOKENS[mode] }
      }).pipe(
        Effect.map((service) => ({ name: modelFor(settings, mode), model: service })),
        Effect.provideService(OpenAiClient.OpenAiClient, client)
      )
    return generateWith(settings, { standard: yield* model("standard"), max: yield* model("max") })
  })
