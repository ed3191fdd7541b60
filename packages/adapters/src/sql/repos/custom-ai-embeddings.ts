/**
 * Embeddings of Custom AI knowledge chunks in `custom_ai_chunk_embeddings` (pgvector), and the search that ranks
 * by both words and meaning.
 *
 * The table is not made by a migration: PostgreSQL servers may or may not have pgvector, and may get it later, so
 * one set of migrations cannot hold a `vector` column. It is set up, idempotently, the first time a configured
 * embedding model needs it (and again every {@link RECHECK_MS} while pgvector is missing): the extension is created
 * where the server offers it, then the table. PGlite always ships it; a PostgreSQL without it searches by words.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { ChunkEmbedding, ChunkText, KnowledgePassage, QueryVector } from "@svc/core/custom-ai"
import { withSpan } from "@svc/core/shared"
import { Clock, Effect, Option, Ref } from "effect"
import type { LeanSql } from "../lean.js"

// How long a "no pgvector here" answer holds before the server is asked again (an operator may install it).
const RECHECK_MS = 10 * 60_000
// Chunks taken from each ranking before they are fused: enough for any limit, few enough to stay cheap.
const FUSED_DEPTH = 50
// Reciprocal rank fusion's constant: a chunk's score is the sum of 1 / (k + its place) over the rankings.
const RRF_K = 60

// No dimension on the column: each model has its own, and one table holds the embeddings of every model used.
const setUpStatements: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS custom_ai_chunk_embeddings (
    source_id text NOT NULL,
    position integer NOT NULL,
    model text NOT NULL,
    custom_ai_id text NOT NULL,
    workspace_id text NOT NULL,
    embedding vector NOT NULL,
    PRIMARY KEY (source_id, position, model),
    FOREIGN KEY (source_id, position) REFERENCES custom_ai_chunks (source_id, position) ON DELETE CASCADE
  )`,
  "CREATE INDEX IF NOT EXISTS custom_ai_chunk_embeddings_model ON custom_ai_chunk_embeddings (custom_ai_id, model)"
]

// pgvector's text form; JSON's numbers are valid in it.
const vectorText = (embedding: ReadonlyArray<number>) => `[${embedding.join(",")}]`

/** A matched chunk as the search statements answer it. */
export interface PassageRow {
  readonly source_id: string
  readonly source_title: string
  readonly source_kind: KnowledgePassage["sourceKind"]
  readonly reference: string | null
  readonly text: string
  readonly rank: number
}

type Readiness = { readonly ready: true } | { readonly ready: false; readonly checkedAt: number }

/** The embedding statements of `KnowledgeRepoSql`, over its client. */
export const makeKnowledgeEmbeddings = (sql: SqlClient.SqlClient, lean: LeanSql) =>
  Effect.gen(function* () {
    const readiness = yield* Ref.make<Option.Option<Readiness>>(Option.none())
    const settingUp = yield* Effect.makeSemaphore(1)

    // Concurrent servers on one database take turns (CREATE … IF NOT EXISTS can still collide when run at once).
    const setUp: Effect.Effect<"ready" | "absent" | "refused", SqlError> = sql.withTransaction(
      Effect.gen(function* () {
        yield* lean`SELECT pg_advisory_xact_lock(hashtext('svc.custom_ai_chunk_embeddings'))`
        const [state] = yield* lean<{ readonly installed: boolean; readonly available: boolean }>`
          SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed,
                 EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`
        if (state?.installed !== true) {
          if (state?.available !== true) return "absent" as const
          // pgvector is not a trusted extension: creating it takes a superuser (or the database owner on some hosts).
          const created = yield* sql.withTransaction(sql`CREATE EXTENSION IF NOT EXISTS vector`).pipe(
            Effect.as(true),
            Effect.catchAll((error) =>
              Effect.as(
                Effect.logWarning(
                  "knowledge embeddings: pgvector is installed on the server but this user cannot create the extension; " +
                    "run CREATE EXTENSION vector in this database as a superuser. Search ranks by words until then.",
                  error
                ),
                false
              )
            )
          )
          if (!created) return "refused" as const
        }
        for (const statement of setUpStatements) yield* sql.unsafe(statement)
        return "ready" as const
      })
    )

    const check = Effect.gen(function* () {
      const outcome = yield* setUp
      if (outcome === "ready") {
        yield* Ref.set(readiness, Option.some({ ready: true }))
        return true
      }
      // Said once per process, not at every re-check.
      if (outcome === "absent" && Option.isNone(yield* Ref.get(readiness))) {
        yield* Effect.logInfo(
          "knowledge embeddings: this PostgreSQL has no pgvector (the vector extension); search ranks by words only"
        )
      }
      yield* Ref.set(readiness, Option.some({ ready: false, checkedAt: yield* Clock.currentTimeMillis }))
      return false
    }).pipe(
      // A failure to ask is not an answer: this search goes without vectors, the next one asks again.
      Effect.catchAll((error) =>
        Effect.as(Effect.logWarning("knowledge embeddings: could not set up the embeddings table", error), false)
      )
    )

    const known = Effect.gen(function* () {
      const current = yield* Ref.get(readiness)
      if (Option.isNone(current)) return Option.none<boolean>()
      if (current.value.ready) return Option.some(true)
      return (yield* Clock.currentTimeMillis) - current.value.checkedAt < RECHECK_MS
        ? Option.some(false)
        : Option.none<boolean>()
    })

    const vectorsReady: Effect.Effect<boolean> = Effect.flatMap(known, (answer) =>
      Option.isSome(answer)
        ? Effect.succeed(answer.value)
        : settingUp.withPermits(1)(
            Effect.flatMap(known, (again) => (Option.isSome(again) ? Effect.succeed(again.value) : check))
          )
    )

    const unembedded = (workspaceId: string, customAiId: string, model: string, limit: number) =>
      lean<{ readonly source_id: string; readonly position: number; readonly text: string }>`
        SELECT c.source_id, c.position, c.text FROM custom_ai_chunks c
        WHERE c.workspace_id = ${workspaceId} AND c.custom_ai_id = ${customAiId}
          AND NOT EXISTS (SELECT 1 FROM custom_ai_chunk_embeddings e
                          WHERE e.source_id = c.source_id AND e.position = c.position AND e.model = ${model})
        ORDER BY c.source_id, c.position
        LIMIT ${limit}`.pipe(
        Effect.map(
          (rows): ReadonlyArray<ChunkText> =>
            rows.map((r) => ({ sourceId: r.source_id, position: Number(r.position), text: r.text }))
        ),
        Effect.orDie,
        withSpan("KnowledgeRepo.unembedded")
      )

    // Joined on the text embedded: a chunk rewritten meanwhile is skipped (its new text is still missing one).
    const saveEmbeddings = (model: string, embeddings: ReadonlyArray<ChunkEmbedding>) =>
      embeddings.length === 0
        ? Effect.succeed(0)
        : lean`
          INSERT INTO custom_ai_chunk_embeddings (source_id, position, model, custom_ai_id, workspace_id, embedding)
          SELECT c.source_id, c.position, ${model}, c.custom_ai_id, c.workspace_id, e.embedding::vector
          FROM jsonb_to_recordset(${JSON.stringify(
            embeddings.map((e) => ({
              source_id: e.sourceId,
              position: e.position,
              text: e.text,
              embedding: vectorText(e.embedding)
            }))
          )}::jsonb) AS e(source_id text, position int, text text, embedding text)
          JOIN custom_ai_chunks c ON c.source_id = e.source_id AND c.position = e.position AND c.text = e.text
          ON CONFLICT (source_id, position, model) DO NOTHING
          RETURNING 1`.pipe(
            Effect.map((rows) => rows.length),
            // A chunk deleted between the read and this write fails its foreign key: the embeddings are a cache,
            // filled in again at the next search, so losing this write loses nothing.
            Effect.catchAll((error) =>
              Effect.as(Effect.logWarning("knowledge embeddings: could not store embeddings", error), 0)
            ),
            withSpan("KnowledgeRepo.saveEmbeddings")
          )

    /**
     * Reciprocal rank fusion of the full-text ranking (as the words-only search ranks) and the cosine-distance
     * ranking of the embeddings of the query's model: a chunk in both rankings comes first, one found by meaning
     * alone still comes. Vectors pointing away from the query's (cosine similarity ≤ 0) never count as found.
     */
    const hybridSearch = (
      workspaceId: string,
      customAiId: string,
      query: { readonly strict: string; readonly loose: string },
      vector: QueryVector,
      limit: number
    ) => {
      const embedding = vectorText(vector.embedding)
      const dimensions = vector.embedding.length
      return lean<PassageRow>`
        WITH q AS (SELECT websearch_to_tsquery('english', ${query.strict}) AS strict,
                          websearch_to_tsquery('english', ${query.loose}) AS loose),
        by_words AS (
          SELECT c.source_id, c.position,
                 row_number() OVER (ORDER BY (CASE WHEN c.search @@ q.strict THEN 1 ELSE 0 END)
                                             + ts_rank_cd(c.search, q.loose, 32) DESC,
                                             s.position, c.source_id, c.position) AS place
          FROM custom_ai_chunks c JOIN custom_ai_sources s ON s.id = c.source_id, q
          WHERE c.workspace_id = ${workspaceId} AND c.custom_ai_id = ${customAiId} AND c.search @@ q.loose
          ORDER BY place LIMIT ${FUSED_DEPTH}),
        by_meaning AS (
          SELECT e.source_id, e.position,
                 row_number() OVER (ORDER BY e.embedding <=> ${embedding}::vector, e.source_id, e.position) AS place
          FROM custom_ai_chunk_embeddings e
          WHERE e.workspace_id = ${workspaceId} AND e.custom_ai_id = ${customAiId} AND e.model = ${vector.model}
            AND vector_dims(e.embedding) = ${dimensions}::int AND (e.embedding <=> ${embedding}::vector) < 1
          ORDER BY place LIMIT ${FUSED_DEPTH}),
        fused AS (
          SELECT source_id, position, sum(1.0::float8 / (${RRF_K}::int + place)) AS rank
          FROM (SELECT * FROM by_words UNION ALL SELECT * FROM by_meaning) ranked
          GROUP BY source_id, position)
        SELECT c.source_id, s.title AS source_title, s.kind AS source_kind, s.reference, c.text, f.rank
        FROM fused f
        JOIN custom_ai_chunks c ON c.source_id = f.source_id AND c.position = f.position
        JOIN custom_ai_sources s ON s.id = c.source_id
        ORDER BY f.rank DESC, s.position, c.source_id, c.position
        LIMIT ${limit}`
    }

    return { vectorsReady, unembedded, saveEmbeddings, hybridSearch } as const
  })
