/** The configured language models answer through their providers' documented APIs and map provider failures. */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ChatModel, type ModelPrompt } from "@svc/core/custom-ai"
import { Effect, Layer, Logger, Option, Redacted } from "effect"
import { type ChatModelSettings, ConfiguredChatModelLive } from "../../src/ai/index.js"
import { json, type Route, startLoopbackProvider } from "./loopback-provider.js"

type Provider = Awaited<ReturnType<typeof startLoopbackProvider>>

const chatCompletion =
  (text: (model: string) => string): Route =>
  (request, response) => {
    const model =
      typeof request.body === "object" && request.body !== null && "model" in request.body
        ? String(request.body.model)
        : "?"
    json(200, {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1_700_000_000,
      model,
      system_fingerprint: "fp_ollama",
      // As Ollama answers: no `logprobs`, no `refusal`.
      choices: [{ index: 0, message: { role: "assistant", content: text(model) }, finish_reason: "stop" }],
      usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 }
    })(request, response)
  }

let cuts = 0

const routes: Record<string, Route> = {
  "POST /compat/v1/chat/completions": chatCompletion((model) => `Answered by ${model}.`),
  "GET /compat/v1/models": json(200, { object: "list", data: [{ id: "llama3.2", object: "model" }] }),
  "POST /compat/v1/embeddings": json(200, {
    object: "list",
    // Out of order on purpose: the vectors must come back in the order of the texts.
    data: [
      { object: "embedding", index: 1, embedding: [0, 1] },
      { object: "embedding", index: 0, embedding: [1, 0] }
    ],
    model: "nomic-embed-text"
  }),
  "POST /busy/v1/chat/completions": json(429, { error: { message: "Rate limit reached" } }, { "retry-after": "7" }),
  "POST /broken/v1/chat/completions": json(500, { error: { message: "internal error" } }),
  "POST /hang/v1/chat/completions": () => {},
  // Every other request has its connection cut before any answer, as a kept-alive socket the provider closed is.
  "POST /cut/v1/chat/completions": (request, response) => {
    cuts += 1
    if (cuts % 2 === 1) response.socket?.destroy()
    else chatCompletion(() => "Answered after a cut connection.")(request, response)
  },
  "POST /badkey/v1/chat/completions": json(401, {
    error: { message: "Incorrect API key provided", code: "invalid_api_key" }
  }),
  "GET /badkey/v1/models": json(401, { error: { message: "Incorrect API key provided" } }),
  "POST /unknown-model/v1/chat/completions": json(404, { error: { message: "model 'llama9' not found" } }),
  "POST /openai/v1/responses": json(200, {
    id: "resp_1",
    object: "response",
    created_at: 1_700_000_000,
    status: "completed",
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: 1024,
    model: "gpt-4.1-mini",
    output: [
      {
        type: "message",
        id: "msg_1",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "Hello from OpenAI.", annotations: [] }]
      }
    ],
    parallel_tool_calls: true,
    previous_response_id: null,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage: {
      input_tokens: 20,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 25
    },
    user: null,
    metadata: {}
  }),
  "GET /openai/v1/models": json(200, { object: "list", data: [] }),
  "POST /anthropic/v1/messages": json(200, {
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [{ type: "text", text: "Hello from Claude." }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 20, output_tokens: 5 }
  }),
  "POST /anthropic-busy/v1/messages": json(
    529,
    { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    { "retry-after": "3" }
  ),
  "POST /openai-badkey/v1/responses": json(401, {
    error: {
      message: "Incorrect API key provided: sk-tes***cret",
      type: "invalid_request_error",
      code: "invalid_api_key"
    }
  }),
  "POST /openai-bad-request/v1/responses": json(400, {
    error: { message: "Unsupported parameter: 'temperature'", type: "invalid_request_error" }
  }),
  "GET /anthropic/v1/models": json(200, { data: [], has_more: false, first_id: null, last_id: null })
}

let provider: Provider
beforeAll(async () => {
  provider = await startLoopbackProvider(routes)
})
afterAll(async () => {
  await provider.close()
})

const settings = (path: string, overrides: Partial<ChatModelSettings> = {}): ChatModelSettings => ({
  provider: "openai-compatible",
  apiKey: Option.some(Redacted.make("sk-test-secret")),
  baseUrl: `${provider.baseUrl}${path}`,
  model: "llama3.2",
  maxModel: Option.none(),
  embeddingModel: Option.none(),
  timeoutMs: 5_000,
  ...overrides
})

const prompt: ModelPrompt = {
  system: "You are the cooking assistant. Knowledge: pasta takes 9 minutes.",
  turns: [
    { role: "user", text: "How long for pasta?" },
    { role: "assistant", text: "About 9 minutes." },
    { role: "user", text: "And al dente?" }
  ],
  mode: "standard"
}

const withModel = <A, E>(configured: ChatModelSettings, use: (model: ChatModel["Type"]) => Effect.Effect<A, E>) =>
  Effect.flatMap(ChatModel, use).pipe(
    Effect.provide(ConfiguredChatModelLive(configured).pipe(Layer.provide(NodeHttpClient.layerUndici)))
  )

const sentTo = (path: string) => provider.seen.filter((request) => request.path === path)

describe("an OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio)", () => {
  it.live("answers with the model's text, sending the system prompt and the turns as chat messages", () =>
    Effect.gen(function* () {
      const answer = yield* withModel(settings("/compat/v1"), (model) => model.generate(prompt))
      expect(answer).toEqual({ text: "Answered by llama3.2.", model: "llama3.2" })
      const sent = sentTo("/compat/v1/chat/completions").at(-1)
      expect(sent?.headers.authorization).toBe("Bearer sk-test-secret")
      expect(sent?.body).toMatchObject({
        model: "llama3.2",
        stream: false,
        messages: [
          { role: "system", content: prompt.system },
          { role: "user", content: "How long for pasta?" },
          { role: "assistant", content: "About 9 minutes." },
          { role: "user", content: "And al dente?" }
        ]
      })
    })
  )

  it.live("answers mode max with the max model and a larger output limit", () =>
    Effect.gen(function* () {
      const configured = settings("/compat/v1", { maxModel: Option.some("llama3.3:70b") })
      const answers = yield* withModel(configured, (model) =>
        Effect.all([model.generate(prompt), model.generate({ ...prompt, mode: "max" })])
      )
      expect(answers.map((answer) => answer.model)).toEqual(["llama3.2", "llama3.3:70b"])
      const [standard, max] = sentTo("/compat/v1/chat/completions").slice(-2)
      expect(standard?.body).toMatchObject({ model: "llama3.2", max_tokens: 1024 })
      expect(max?.body).toMatchObject({ model: "llama3.3:70b", max_tokens: 4096 })
    })
  )

  it.live("tries once more on a new connection when one is cut before any answer (a stale kept-alive socket)", () =>
    Effect.gen(function* () {
      const answer = yield* withModel(settings("/cut/v1"), (model) => model.generate(prompt))
      expect(answer.text).toBe("Answered after a cut connection.")
      expect(sentTo("/cut/v1/chat/completions")).toHaveLength(2)
    })
  )

  it.live("works without an API key (a local server), sending no Authorization header", () =>
    Effect.gen(function* () {
      const answer = yield* withModel(settings("/compat/v1", { apiKey: Option.none() }), (model) =>
        model.generate(prompt)
      )
      expect(answer.text).toBe("Answered by llama3.2.")
      expect(sentTo("/compat/v1/chat/completions").at(-1)?.headers.authorization).toBeUndefined()
    })
  )

  it.live("embeds texts in their order when an embedding model is configured, and has no embed without one", () =>
    Effect.gen(function* () {
      const configured = settings("/compat/v1", { embeddingModel: Option.some("nomic-embed-text") })
      const vectors = yield* withModel(configured, (model) =>
        Option.match(model.embed, {
          onNone: () => Effect.die("no embed"),
          onSome: (embed) => embed(["first", "second"])
        })
      )
      expect(vectors).toEqual([
        [1, 0],
        [0, 1]
      ])
      expect(sentTo("/compat/v1/embeddings").at(-1)?.body).toEqual({
        model: "nomic-embed-text",
        input: ["first", "second"]
      })
      const without = yield* withModel(settings("/compat/v1"), (model) => Effect.succeed(Option.isNone(model.embed)))
      expect(without).toBe(true)
    })
  )

  it.live("describes the provider and models, never the key", () =>
    Effect.gen(function* () {
      const description = yield* withModel(settings("/compat/v1"), (model) => Effect.succeed(model.description))
      expect(description).toEqual(
        Option.some({ provider: "openai-compatible", model: "llama3.2", embeddingModel: Option.none() })
      )
      expect(JSON.stringify(description)).not.toContain("sk-test-secret")
    })
  )
})

describe("provider failures", () => {
  const failure = (path: string, overrides: Partial<ChatModelSettings> = {}) =>
    withModel(settings(path, overrides), (model) => Effect.flip(model.generate(prompt)))

  it.live("a 429 is unreachable with the provider's Retry-After", () =>
    Effect.gen(function* () {
      const error = yield* failure("/busy/v1")
      expect(error._tag).toBe("ModelUnreachable")
      expect(error._tag === "ModelUnreachable" && error.retryAfterSeconds).toBe(7)
      expect(error.message).toContain("429")
      expect(error.message).toContain("Rate limit reached")
    })
  )

  it.live("a 500 is unreachable", () =>
    Effect.gen(function* () {
      const error = yield* failure("/broken/v1")
      expect(error._tag).toBe("ModelUnreachable")
      expect(error.message).toContain("500")
    })
  )

  it.live("a provider that never answers is unreachable once SVC_AI_TIMEOUT_MS has passed", () =>
    Effect.gen(function* () {
      const started = Date.now()
      const error = yield* failure("/hang/v1", { timeoutMs: 300 })
      expect(error._tag).toBe("ModelUnreachable")
      expect(error.message).toContain("SVC_AI_TIMEOUT_MS")
      expect(Date.now() - started).toBeLessThan(3_000)
    })
  )

  it.live("a server that is not there is unreachable", () =>
    Effect.gen(function* () {
      const error = yield* withModel(settings("", { baseUrl: "http://127.0.0.1:9/v1" }), (model) =>
        Effect.flip(model.generate(prompt))
      )
      expect(error._tag).toBe("ModelUnreachable")
    })
  )

  it.live("a 401 is refused with the key hint, never the key", () =>
    Effect.gen(function* () {
      const error = yield* failure("/badkey/v1")
      expect(error).toMatchObject({
        _tag: "ModelRefused",
        message: "the AI provider refused the API key (401); check SVC_AI_API_KEY"
      })
      expect(error.message).not.toContain("sk-test-secret")
    })
  )

  it.live("a 404 (an unknown model) is refused with the provider's message", () =>
    Effect.gen(function* () {
      const error = yield* failure("/unknown-model/v1")
      expect(error._tag).toBe("ModelRefused")
      expect(error.message).toContain("404")
      expect(error.message).toContain("model 'llama9' not found")
    })
  )
})

describe("OpenAI and Anthropic through @effect/ai", () => {
  it.live("OpenAI answers through the Responses API", () =>
    Effect.gen(function* () {
      const configured = settings("/openai/v1", { provider: "openai", model: "gpt-4.1-mini" })
      const answer = yield* withModel(configured, (model) => model.generate(prompt))
      expect(answer).toEqual({ text: "Hello from OpenAI.", model: "gpt-4.1-mini" })
      const sent = sentTo("/openai/v1/responses").at(-1)
      expect(sent?.headers.authorization).toBe("Bearer sk-test-secret")
      expect(sent?.body).toMatchObject({ model: "gpt-4.1-mini", max_output_tokens: 1024 })
      expect(JSON.stringify(sent?.body)).toContain(prompt.system)
      expect(JSON.stringify(sent?.body)).toContain("And al dente?")
    })
  )

  it.live("Anthropic answers through the Messages API, the system prompt as `system`", () =>
    Effect.gen(function* () {
      const configured = settings("/anthropic", { provider: "anthropic", model: "claude-sonnet-4-5" })
      const answer = yield* withModel(configured, (model) => model.generate({ ...prompt, mode: "max" }))
      expect(answer).toEqual({ text: "Hello from Claude.", model: "claude-sonnet-4-5" })
      const sent = sentTo("/anthropic/v1/messages").at(-1)
      expect(sent?.headers["x-api-key"]).toBe("sk-test-secret")
      expect(sent?.body).toMatchObject({ model: "claude-sonnet-4-5", max_tokens: 4096 })
      expect(JSON.stringify(sent?.body)).toContain(prompt.system)
      expect(JSON.stringify(sent?.body)).toContain("And al dente?")
    })
  )
})

describe("OpenAI and Anthropic failures", () => {
  it.live("an overloaded Anthropic is unreachable with its Retry-After", () =>
    Effect.gen(function* () {
      const configured = settings("/anthropic-busy", { provider: "anthropic", model: "claude-sonnet-4-5" })
      const error = yield* withModel(configured, (model) => Effect.flip(model.generate(prompt)))
      expect(error).toMatchObject({ _tag: "ModelUnreachable", retryAfterSeconds: 3 })
      expect(error.message).toContain("Overloaded")
    })
  )

  it.live("OpenAI refusing the key is refused with the hint, and the provider's echo of the key is not repeated", () =>
    Effect.gen(function* () {
      const configured = settings("/openai-badkey/v1", { provider: "openai", model: "gpt-4.1-mini" })
      const error = yield* withModel(configured, (model) => Effect.flip(model.generate(prompt)))
      expect(error).toMatchObject({
        _tag: "ModelRefused",
        message: "the AI provider refused the API key (401); check SVC_AI_API_KEY"
      })
    })
  )

  it.live("a 400 from OpenAI is refused with the provider's message", () =>
    Effect.gen(function* () {
      const configured = settings("/openai-bad-request/v1", { provider: "openai", model: "gpt-4.1-mini" })
      const error = yield* withModel(configured, (model) => Effect.flip(model.generate(prompt)))
      expect(error._tag).toBe("ModelRefused")
      expect(error.message).toContain("(400): Unsupported parameter: 'temperature'")
    })
  )
})

describe("the start-up key check", () => {
  it.live("lists the provider's models once, and a refused key is only a warning", () =>
    Effect.gen(function* () {
      const before = sentTo("/badkey/v1/models").length
      const logged: Array<string> = []
      const logger = Logger.make(({ message }) => {
        logged.push(String(message))
      })
      yield* withModel(settings("/badkey/v1"), () => Effect.sleep("200 millis")).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, logger))
      )
      expect(sentTo("/badkey/v1/models").length).toBe(before + 1)
      expect(logged.join("\n")).toContain("refused the API key (401); check SVC_AI_API_KEY")
      expect(logged.join("\n")).not.toContain("sk-test-secret")
    })
  )
})
