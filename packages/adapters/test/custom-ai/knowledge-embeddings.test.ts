/**
 * Knowledge searched by meaning: chunks embedded by an OpenAI-compatible provider on loopback, stored with pgvector
 * where the database has it (PGlite always; PostgreSQL only with the extension installed) and ranked together with
 * full-text search. Where the database has no pgvector, search ranks by words and the provider is never asked.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { CustomAiKnowledge, CustomAis, KnowledgeRepo } from "@svc/core/custom-ai"
import { Effect, Layer, Option } from "effect"
import { ConfiguredChatModelLive } from "../../src/ai/index.js"
import { signUp } from "../support/core.js"
import { engineName } from "../support/database.js"
import { json, type Route, type SeenRequest, startLoopbackProvider } from "../ai/loopback-provider.js"
import { askTestLayer } from "./ask-support.js"

// The provider's "models": a few concepts, each a dimension of its own, and every other word hashed into the rest.
// The first model knows an automobile is a car; the second does not.
const CONCEPTS: Record<string, ReadonlyArray<ReadonlyArray<string>>> = {
  "concepts-1": [
    ["car", "cars", "automobile", "vehicle"],
    ["bike", "bicycle", "bicycles"]
  ],
  "concepts-2": [
    ["car", "cars", "vehicle"],
    ["bike", "bicycle", "bicycles"]
  ]
}
const HASHED = 16

const embedding = (model: string, text: string): Array<number> => {
  const concepts = CONCEPTS[model] ?? []
  const vector = new Array<number>(concepts.length + HASHED).fill(0)
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const concept = concepts.findIndex((words) => words.includes(word))
    const hash = [...word].reduce((sum, char) => (sum * 31 + (char.codePointAt(0) ?? 0)) % 1_000_003, 7)
    const at = concept >= 0 ? concept : concepts.length + (hash % HASHED)
    vector[at] = (vector[at] ?? 0) + 1
  }
  return vector
}

const provider = { failing: false, seen: [] as Array<SeenRequest> }

const embeddingsRoute: Route = (request, response) => {
  const body = request.body as { model: string; input: ReadonlyArray<string> }
  if (provider.failing) return json(503, { error: { message: "overloaded" } })(request, response)
  json(200, {
    object: "list",
    data: body.input.map((text, index) => ({ object: "embedding", index, embedding: embedding(body.model, text) })),
    model: body.model
  })(request, response)
}

const routes: Record<string, Route> = {
  "POST /v1/embeddings": embeddingsRoute,
  "GET /v1/models": json(200, { object: "list", data: [] })
}

const startProvider = Effect.acquireRelease(
  Effect.promise(() => startLoopbackProvider(routes)),
  (started) => Effect.promise(() => started.close())
)

const chatModel = (baseUrl: string, embeddingModel: string) =>
  ConfiguredChatModelLive({
    provider: "openai-compatible",
    apiKey: Option.none(),
    baseUrl: `${baseUrl}/v1`,
    model: "chat-model",
    maxModel: Option.none(),
    embeddingModel: Option.some(embeddingModel),
    // Generous: a slow (busy) machine must not look like a provider failure here.
    timeoutMs: 60_000
  }).pipe(Layer.provide(NodeHttpClient.layerUndici))

let baseUrl = ""

const testLayer = Layer.unwrapScoped(
  Effect.map(startProvider, (started) => {
    baseUrl = started.baseUrl
    provider.seen = started.seen
    return askTestLayer(chatModel(started.baseUrl, "concepts-1"))
  })
)

/** The embedding requests the provider got since `from`: the model and the texts of each. */
const embeddingCalls = (from = 0) =>
  provider.seen
    .filter((request) => request.path === "/v1/embeddings")
    .slice(from)
    .map((request) => request.body as { model: string; input: ReadonlyArray<string> })

// What the code itself goes by: pgvector offered by the server (PGlite always offers it).
const databaseHasVectors = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<{ offered: boolean }>`SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS offered`
).pipe(
  Effect.map((rows) => rows[0]?.offered === true),
  Effect.orDie
)

const assistant = Effect.gen(function* () {
  const user = yield* signUp()
  const customAi = yield* (yield* CustomAis).create(user.workspace.id, { name: "Garage" })
  return { ws: user.workspace.id, id: customAi.id }
})

const addText = (ws: string, id: string, title: string, text: string) =>
  Effect.flatMap(CustomAiKnowledge, (knowledge) => knowledge.add(ws, id, { kind: "text", title, text }))

const found = (ws: string, id: string, query: string) =>
  Effect.flatMap(CustomAiKnowledge, (knowledge) => knowledge.search(ws, id, query)).pipe(
    Effect.map((passages) => passages.map((passage) => passage.sourceTitle))
  )

/** The Custom AI's embeddings by model; "no table" where the database has none (no pgvector). */
const embeddingRows = (customAiId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [table] = yield* sql<{ name: string | null }>`SELECT to_regclass('custom_ai_chunk_embeddings')::text AS name`
    if (table?.name == null) return "no table" as const
    return yield* sql<{ model: string; n: number }>`
      SELECT model, count(*)::int AS n FROM custom_ai_chunk_embeddings
      WHERE custom_ai_id = ${customAiId} GROUP BY model ORDER BY model`
  }).pipe(Effect.orDie)

layer(testLayer, { timeout: "120 seconds" })(`Custom AI knowledge by meaning (${engineName})`, (it) => {
  it.effect(
    "finds a passage by meaning and ranks one matching words and meaning first; by words without pgvector",
    () =>
      Effect.gen(function* () {
        const vectors = yield* databaseHasVectors
        if (engineName === "PGlite") expect(vectors).toBe(true)
        expect(yield* (yield* KnowledgeRepo).vectorsReady).toBe(vectors)
        const a = yield* assistant
        const before = embeddingCalls().length
        yield* addText(a.ws, a.id, "Fleet", "Our automobile fleet is serviced every spring.")
        yield* addText(a.ws, a.id, "Parking", "The car park opens at eight.")
        yield* addText(a.ws, a.id, "Hours", "The office closes at six.")
        // Each source's chunks are embedded as it is added, one request each.
        expect(embeddingCalls(before)).toEqual(
          vectors
            ? [
                { model: "concepts-1", input: ["Our automobile fleet is serviced every spring."] },
                { model: "concepts-1", input: ["The car park opens at eight."] },
                { model: "concepts-1", input: ["The office closes at six."] }
              ]
            : []
        )

        const passages = yield* Effect.flatMap(CustomAiKnowledge, (knowledge) => knowledge.search(a.ws, a.id, "car"))
        expect(passages.map((p) => p.sourceTitle)).toEqual(vectors ? ["Parking", "Fleet"] : ["Parking"])
        if (vectors) expect(passages[0]?.rank).toBeGreaterThan(passages[1]?.rank ?? 1)
        // No word in common with either, so only meaning finds them.
        expect([...(yield* found(a.ws, a.id, "vehicle"))].sort()).toEqual(vectors ? ["Fleet", "Parking"] : [])
        expect(yield* found(a.ws, a.id, "closes")).toEqual(["Hours"])
        expect(embeddingCalls(before).length).toBe(vectors ? 6 : 0)
      })
  )

  it.effect("adds sources while the provider fails, searchable by words, and embeds them at a later search", () =>
    Effect.gen(function* () {
      const vectors = yield* databaseHasVectors
      const a = yield* assistant
      provider.failing = true
      const [rental, byWords, byMeaning] = yield* Effect.all([
        addText(a.ws, a.id, "Rental", "Bicycles can be rented at the front desk."),
        found(a.ws, a.id, "bicycles"),
        found(a.ws, a.id, "bike")
      ]).pipe(
        Effect.ensuring(
          Effect.sync(() => {
            provider.failing = false
          })
        )
      )
      expect(rental.status).toBe("ready")
      expect(byWords).toEqual(["Rental"])
      expect(byMeaning).toEqual([])
      expect(yield* embeddingRows(a.id)).toEqual(vectors ? [] : "no table")

      // Back up: the next search's one request carries the query and the chunk still missing its embedding.
      const before = embeddingCalls().length
      expect(yield* found(a.ws, a.id, "bike")).toEqual(vectors ? ["Rental"] : [])
      expect(embeddingCalls(before)).toEqual(
        vectors ? [{ model: "concepts-1", input: ["bike", "Bicycles can be rented at the front desk."] }] : []
      )
      expect(yield* embeddingRows(a.id)).toEqual(vectors ? [{ model: "concepts-1", n: 1 }] : "no table")
    })
  )

  it.effect("after a change of embedding model, embeds the chunks again and ranks by the new model's only", () =>
    Effect.gen(function* () {
      const vectors = yield* databaseHasVectors
      const a = yield* assistant
      yield* addText(a.ws, a.id, "Fleet", "Our automobile fleet is serviced every spring.")
      yield* addText(a.ws, a.id, "Parking", "The car park opens at eight.")
      expect(yield* found(a.ws, a.id, "car")).toEqual(vectors ? ["Parking", "Fleet"] : ["Parking"])

      // The same knowledge served with the second model, which does not know an automobile is a car.
      const before = embeddingCalls().length
      const changed = yield* Effect.flatMap(CustomAiKnowledge, (knowledge) => knowledge.search(a.ws, a.id, "car")).pipe(
        Effect.provide(
          CustomAiKnowledge.DefaultWithoutDependencies.pipe(Layer.provide(chatModel(baseUrl, "concepts-2")))
        )
      )
      expect(changed.map((p) => p.sourceTitle)).toEqual(["Parking"])
      const calls = embeddingCalls(before)
      expect(calls.map((call) => call.model)).toEqual(vectors ? ["concepts-2"] : [])
      expect([...(calls[0]?.input ?? [])].sort()).toEqual(
        vectors ? ["Our automobile fleet is serviced every spring.", "The car park opens at eight.", "car"] : []
      )
      expect(yield* embeddingRows(a.id)).toEqual(
        vectors
          ? [
              { model: "concepts-1", n: 2 },
              { model: "concepts-2", n: 2 }
            ]
          : "no table"
      )
    })
  )
})
