import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { type ChatModelSettings, ConfiguredChatModelLive, DEFAULT_BASE_URLS, NoChatModelLive } from "@svc/adapters/ai"
import { Config, ConfigError, Effect, Either, Layer, Option } from "effect"

const optionalText = (name: string) =>
  Config.option(Config.string(name)).pipe(
    Config.map(Option.filter((text) => text.trim().length > 0)),
    Config.map(Option.map((text) => text.trim()))
  )

const problem = (variable: string, message: string) => Either.left(ConfigError.InvalidData([variable], message))

/**
 * The language model from `SVC_AI_*` (README, configuration): none by default, or a provider with its model, key,
 * base URL and deadline. A combination that cannot work fails start-up with the variable named.
 */
export const AiConfig: Config.Config<Option.Option<ChatModelSettings>> = Config.all({
  provider: Config.literal(
    "none",
    "openai",
    "anthropic",
    "openai-compatible"
  )("SVC_AI_PROVIDER").pipe(Config.withDefault("none" as const)),
  apiKey: Config.option(Config.redacted("SVC_AI_API_KEY")),
  baseUrl: optionalText("SVC_AI_BASE_URL"),
  model: optionalText("SVC_AI_MODEL"),
  maxModel: optionalText("SVC_AI_MAX_MODEL"),
  embeddingModel: optionalText("SVC_AI_EMBEDDING_MODEL"),
  timeoutMs: Config.integer("SVC_AI_TIMEOUT_MS").pipe(
    Config.withDefault(60_000),
    Config.validate({ message: "SVC_AI_TIMEOUT_MS must be at least 1", validation: (ms) => ms >= 1 })
  )
}).pipe(
  Config.mapOrFail((read): Either.Either<Option.Option<ChatModelSettings>, ConfigError.ConfigError> => {
    const provider = read.provider
    if (provider === "none") return Either.right(Option.none())
    if (Option.isNone(read.model)) {
      return problem("SVC_AI_MODEL", `set the model to answer with when SVC_AI_PROVIDER is ${provider}`)
    }
    if (provider !== "openai-compatible" && Option.isNone(read.apiKey)) {
      return problem("SVC_AI_API_KEY", `set the API key of ${provider} (only openai-compatible may go without one)`)
    }
    if (provider === "anthropic" && Option.isSome(read.embeddingModel)) {
      return problem(
        "SVC_AI_EMBEDDING_MODEL",
        "anthropic has no embeddings API; unset it or use openai or openai-compatible"
      )
    }
    const baseUrl = Option.orElse(read.baseUrl, () =>
      provider === "openai-compatible" ? Option.none() : Option.some(DEFAULT_BASE_URLS[provider])
    )
    if (Option.isNone(baseUrl)) {
      return problem(
        "SVC_AI_BASE_URL",
        "set the server's OpenAI-compatible base URL for openai-compatible (e.g. http://127.0.0.1:11434/v1 for Ollama)"
      )
    }
    if (!URL.canParse(baseUrl.value) || !/^https?:$/.test(new URL(baseUrl.value).protocol)) {
      return problem("SVC_AI_BASE_URL", `not an http(s) URL: ${baseUrl.value}`)
    }
    return Either.right(
      Option.some({
        provider,
        apiKey: read.apiKey,
        baseUrl: baseUrl.value.replace(/\/+$/, ""),
        model: read.model.value,
        maxModel: read.maxModel,
        embeddingModel: read.embeddingModel,
        timeoutMs: read.timeoutMs
      })
    )
  })
)

/** The `ChatModel` the configuration names, over Node's HTTP client (undici); `NoChatModelLive` with none. */
export const ChatModelLive = Layer.unwrapEffect(
  Effect.map(AiConfig, (settings) =>
    Option.match(settings, {
      onNone: () => NoChatModelLive,
      onSome: (configured) => ConfiguredChatModelLive(configured).pipe(Layer.provide(NodeHttpClient.layerUndici))
    })
  )
)
