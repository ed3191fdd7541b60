import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import { ChatModel } from "@svc/core/custom-ai"
import { Effect, Layer, Option } from "effect"
import { openAiEmbeddings } from "./embeddings.js"
import { loadOptional } from "../optional-package.js"
import { chatCompletions } from "./openai-compatible.js"
import { probeProvider } from "./probe.js"
import type { ChatModelSettings } from "./settings.js"

/**
 * A request that never reached the provider: the connection failed before an answer began. The usual cause is a
 * kept-alive connection the provider closed (it restarted, or dropped idle sockets) being reused; one more try on a
 * new connection then goes through, where failing would cost an answer its retry delay.
 */
const neverReached = (error: HttpClientError.HttpClientError) =>
  error._tag === "RequestError" && error.reason === "Transport"

/** A provider's module, loaded when first configured; a defect naming the package to install when it is missing. */
const providerModule = <A>(packageName: string, load: () => Promise<A>): Effect.Effect<A> =>
  Effect.orDie(loadOptional({ packages: [packageName], purpose: "this language-model provider", load }))

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
      const http = HttpClient.retry(yield* HttpClient.HttpClient, { times: 1, while: neverReached })
      // The providers' libraries are loaded only when configured: their generated API schemas alone were ~100 MB
      // of memory and half a second of start-up in every process, with or without a model.
      // They are optional peers of this package (`svc serve` installs both): one not installed is said plainly.
      const generate = yield* (
        settings.provider === "openai"
          ? Effect.flatMap(
              providerModule("@effect/ai-openai", () => import("./openai.js")),
              ({ openAiGenerate }) => openAiGenerate(settings)
            )
          : settings.provider === "anthropic"
            ? Effect.flatMap(
                providerModule("@effect/ai-anthropic", () => import("./anthropic.js")),
                ({ anthropicGenerate }) => anthropicGenerate(settings)
              )
            : Effect.succeed(chatCompletions(http, settings))
      ).pipe(Effect.provideService(HttpClient.HttpClient, http))
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
