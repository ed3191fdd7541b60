/** The language model is chosen by `SVC_AI_*` at start-up; a combination that cannot work names its variable. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { AiConfig } from "../src/ai-config.js"

const read = (env: Record<string, string>) =>
  Effect.either(Effect.withConfigProvider(AiConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))))

const refusal = (env: Record<string, string>) =>
  Effect.map(read(env), (answer) => (Either.isLeft(answer) ? String(answer.left) : "accepted"))

describe("SVC_AI_* configuration", () => {
  it.effect("has no language model by default", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toEqual(Either.right(Option.none()))
      expect(yield* read({ SVC_AI_PROVIDER: "none", SVC_AI_MODEL: "ignored" })).toEqual(Either.right(Option.none()))
    })
  )

  it.effect("reads a provider with the documented defaults", () =>
    Effect.gen(function* () {
      const openai = yield* read({ SVC_AI_PROVIDER: "openai", SVC_AI_API_KEY: "sk-1", SVC_AI_MODEL: "gpt-4.1-mini" })
      expect(Either.isRight(openai) && Option.getOrThrow(openai.right)).toMatchObject({
        provider: "openai",
        baseUrl: "https://api.openai.com/v1",
        model: "gpt-4.1-mini",
        maxModel: Option.none(),
        embeddingModel: Option.none(),
        timeoutMs: 60_000
      })
      const anthropic = yield* read({ SVC_AI_PROVIDER: "anthropic", SVC_AI_API_KEY: "sk-ant", SVC_AI_MODEL: "claude" })
      expect(Either.isRight(anthropic) && Option.getOrThrow(anthropic.right).baseUrl).toBe("https://api.anthropic.com")
    })
  )

  it.effect("reads a local OpenAI-compatible server without a key, and every optional variable", () =>
    Effect.gen(function* () {
      const local = yield* read({
        SVC_AI_PROVIDER: "openai-compatible",
        SVC_AI_BASE_URL: "http://127.0.0.1:11434/v1/",
        SVC_AI_MODEL: "llama3.2",
        SVC_AI_MAX_MODEL: "llama3.3:70b",
        SVC_AI_EMBEDDING_MODEL: "nomic-embed-text",
        SVC_AI_TIMEOUT_MS: "120000"
      })
      expect(local).toEqual(
        Either.right(
          Option.some({
            provider: "openai-compatible",
            apiKey: Option.none(),
            baseUrl: "http://127.0.0.1:11434/v1",
            model: "llama3.2",
            maxModel: Option.some("llama3.3:70b"),
            embeddingModel: Option.some("nomic-embed-text"),
            timeoutMs: 120_000
          })
        )
      )
    })
  )

  it.effect("keeps the key redacted", () =>
    Effect.gen(function* () {
      const answer = yield* read({ SVC_AI_PROVIDER: "openai", SVC_AI_API_KEY: "sk-secret", SVC_AI_MODEL: "gpt" })
      const settings = Either.isRight(answer) ? Option.getOrThrow(answer.right) : undefined
      expect(settings?.apiKey.pipe(Option.map(Redacted.value))).toEqual(Option.some("sk-secret"))
      expect(String(settings?.apiKey)).not.toContain("sk-secret")
    })
  )

  it.effect("refuses each combination that cannot work, naming the variable", () =>
    Effect.gen(function* () {
      expect(yield* refusal({ SVC_AI_PROVIDER: "gemini" })).toContain("SVC_AI_PROVIDER")
      expect(yield* refusal({ SVC_AI_PROVIDER: "openai", SVC_AI_API_KEY: "sk-1" })).toContain(
        'Invalid data at SVC_AI_MODEL: "set the model to answer with when SVC_AI_PROVIDER is openai'
      )
      expect(yield* refusal({ SVC_AI_PROVIDER: "openai", SVC_AI_MODEL: "gpt" })).toContain(
        'Invalid data at SVC_AI_API_KEY: "set the API key of openai'
      )
      expect(yield* refusal({ SVC_AI_PROVIDER: "anthropic", SVC_AI_MODEL: "claude" })).toContain("SVC_AI_API_KEY")
      expect(yield* refusal({ SVC_AI_PROVIDER: "openai-compatible", SVC_AI_MODEL: "llama3.2" })).toContain(
        "Invalid data at SVC_AI_BASE_URL: \"set the server's OpenAI-compatible base URL"
      )
      expect(
        yield* refusal({
          SVC_AI_PROVIDER: "openai-compatible",
          SVC_AI_MODEL: "llama3.2",
          SVC_AI_BASE_URL: "localhost:11434"
        })
      ).toContain('Invalid data at SVC_AI_BASE_URL: "not an http(s) URL')
      expect(
        yield* refusal({
          SVC_AI_PROVIDER: "anthropic",
          SVC_AI_API_KEY: "sk-ant",
          SVC_AI_MODEL: "claude",
          SVC_AI_EMBEDDING_MODEL: "voyage-3"
        })
      ).toContain('Invalid data at SVC_AI_EMBEDDING_MODEL: "anthropic has no embeddings API')
      expect(yield* refusal({ SVC_AI_TIMEOUT_MS: "0" })).toContain("SVC_AI_TIMEOUT_MS must be at least 1")
      expect(yield* refusal({ SVC_AI_TIMEOUT_MS: "soon" })).toContain("SVC_AI_TIMEOUT_MS")
    })
  )
})
