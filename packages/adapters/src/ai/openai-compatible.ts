import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type { ModelAnswer, ModelPrompt, ModelRefused, ModelUnreachable } from "@svc/core/custom-ai"
import { Effect, Option, Schema } from "effect"
import { malformedAnswer } from "./errors.js"
import { callOpenAiShaped } from "./provider-http.js"
import { type ChatModelSettings, OUTPUT_TOKENS } from "./settings.js"

// Only what we read: Ollama and llama.cpp leave out `logprobs`, `refusal` and more that OpenAI's own schema requires.
const ChatCompletion = Schema.Struct({
  model: Schema.optional(Schema.String),
  choices: Schema.Array(Schema.Struct({ message: Schema.Struct({ content: Schema.NullishOr(Schema.String) }) }))
})

/** The model `mode` asks for: the max model when one is configured. */
export const modelFor = (settings: ChatModelSettings, mode: ModelPrompt["mode"]): string =>
  mode === "max" ? Option.getOrElse(settings.maxModel, () => settings.model) : settings.model

/** Answers through `POST {base}/chat/completions`, the API every local model server speaks. */
export const chatCompletions =
  (http: HttpClient.HttpClient, settings: ChatModelSettings) =>
  (prompt: ModelPrompt): Effect.Effect<ModelAnswer, ModelUnreachable | ModelRefused> => {
    const model = modelFor(settings, prompt.mode)
    const body = {
      model,
      messages: [
        { role: "system", content: prompt.system },
        ...prompt.turns.map((turn) => ({ role: turn.role, content: turn.text }))
      ],
      max_tokens: OUTPUT_TOKENS[prompt.mode],
      stream: false
    }
    return callOpenAiShaped(
      http,
      settings,
      HttpClientRequest.post("/chat/completions").pipe(HttpClientRequest.bodyUnsafeJson(body)),
      ChatCompletion
    ).pipe(
      Effect.flatMap((answer) => {
        const text = answer.choices[0]?.message.content
        return typeof text === "string"
          ? Effect.succeed({ text, model: answer.model ?? model })
          : Effect.fail(malformedAnswer(settings.provider))
      })
    )
  }
