import * as HttpClient from "@effect/platform/HttpClient"
import { ChatModel } from "@svc/core/custom-ai"
import { Effect, Layer, Option } from "effect"
import { anthropicGenerate } from "./anthropic.js"
import { openAiEmbeddings } from "./embeddings.js"
import { openAiGenerate } from "./openai.js"
import { chatCompletions } from "./openai-compatible.js"
import { probeProvider } from "./probe.js"
import type { ChatModelSettings } from "./settings.js"

/**
 * The configured provider's `ChatModel` over the given HTTP client (an ordinary one: the operator chose the URL, and
 * local models on localhost must work). The key is checked once in the background at start-up.
 */
export const ConfiguredChatModelLive = (
  settings: ChatModelSettings
): Layer.Layer<ChatModel, never, HttpClient.HttpClient> =>
  Layer.scoped(
    ChatModel,
    Effect.gen(function* () {
      const http = yield* HttpClient.HttpClient
      const generate =
        settings.provider === "openai"
          ? yield* openAiGenerate(settings)
          : settings.provider === "anthropic"
            ? yield* anthropicGenerate(settings)
            : chatCompletions(http, settings)
      yield* Effect.forkScoped(probeProvider(http, settings))
      return {
        description: Option.some({
          provider: settings.provider,
          model: settings.model,
          embeddingModel: settings.embeddingModel
        }),
        generate,
        // Anthropic has no embeddings API: the configuration refuses an embedding model with it.
        embed:
          settings.provider === "anthropic"
            ? Option.none()
            : Option.map(settings.embeddingModel, (model) => openAiEmbeddings(http, settings, model))
      }
    })
  )
