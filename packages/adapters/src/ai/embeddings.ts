import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type { ModelRefused, ModelUnreachable } from "@svc/core/custom-ai"
import { Effect, Schema } from "effect"
import { callOpenAiShaped } from "./provider-http.js"
import type { ChatModelSettings } from "./settings.js"

const EmbeddingsAnswer = Schema.Struct({
  data: Schema.Array(Schema.Struct({ index: Schema.optional(Schema.Int), embedding: Schema.Array(Schema.Number) }))
})

/**
 * Embeds texts through `{base}/embeddings`, the same wire format on OpenAI and the local servers (we decode only
 * `data[].embedding`, which both send). One vector per text, in the order of the texts.
 */
export const openAiEmbeddings =
  (http: HttpClient.HttpClient, settings: ChatModelSettings, model: string) =>
  (
    texts: ReadonlyArray<string>
  ): Effect.Effect<ReadonlyArray<ReadonlyArray<number>>, ModelUnreachable | ModelRefused> =>
    texts.length === 0
      ? Effect.succeed([])
      : callOpenAiShaped(
          http,
          settings,
          HttpClientRequest.post("/embeddings").pipe(HttpClientRequest.bodyUnsafeJson({ model, input: texts })),
          EmbeddingsAnswer
        ).pipe(
          Effect.map((answer) =>
            answer.data
              .map((row, position) => ({ order: row.index ?? position, vector: row.embedding }))
              .sort((a, b) => a.order - b.order)
              .map((row) => row.vector)
          )
        )
