import * as SqlClient from "@effect/sql/SqlClient"
import {
  type IndexedContent,
  type KnowledgePassage,
  KnowledgeRepo,
  type KnowledgeSource,
  NOTE_DELETED
} from "@svc/core/custom-ai"
import { withSpan } from "@svc/core/shared"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"
import { makeKnowledgeEmbeddings, type PassageRow } from "./custom-ai-embeddings.js"

interface SourceRow {
  readonly id: string
  readonly workspace_id: string
  readonly custom_ai_id: string
  readonly kind: KnowledgeSource["kind"]
  readonly title: string
  readonly title_fixed: boolean
  readonly reference: string | null
  readonly status: KnowledgeSource["status"]
  readonly failure: string | null
  readonly characters: number
  readonly folder: string | null
  readonly position: number
  readonly media_id: string | null
  readonly content_version: Date | null
  readonly indexed_at: Date | null
  readonly created_at: Date
  readonly updated_at: Date
}

const toSource = (row: SourceRow): KnowledgeSource => ({
  id: row.id,
  workspaceId: row.workspace_id,
  customAiId: row.custom_ai_id,
  kind: row.kind,
  title: row.title,
  titleFixed: row.title_fixed,
  reference: row.reference,
  status: row.status,
  failure: row.failure,
  characters: Number(row.characters),
  folder: row.folder,
  position: Number(row.position),
  mediaId: row.media_id,
  contentVersion: row.content_version,
  indexedAt: row.indexed_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

const firstSource = (rows: ReadonlyArray<SourceRow>) => Option.map(Option.fromNullable(rows[0]), toSource)

const toPassage = (r: PassageRow): KnowledgePassage => ({
  sourceId: r.source_id,
  sourceTitle: r.source_title,
  sourceKind: r.source_kind,
  url: r.source_kind === "url" ? r.reference : null,
  text: r.text,
  rank: Number(r.rank)
})

// Chunks go in as one JSON parameter, unpacked by the database: one statement however many chunks a source has.
const chunksJson = (chunks: ReadonlyArray<string>) =>
  JSON.stringify(chunks.map((text, position) => ({ position, text })))

/** `KnowledgeRepo` over SQL: `custom_ai_sources` (with each source's text) and `custom_ai_chunks` (tsvector). */
export const KnowledgeRepoSql = Layer.effect(
  KnowledgeRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    const embeddings = yield* makeKnowledgeEmbeddings(sql, lean)

    const insertChunks = (
      source: { readonly id: string; readonly customAiId: string; readonly workspaceId: string },
      chunks: ReadonlyArray<string>
    ) =>
      chunks.length === 0
        ? Effect.void
        : lean`INSERT INTO custom_ai_chunks (source_id, position, custom_ai_id, workspace_id, text)
               SELECT ${source.id}, c.position, ${source.customAiId}, ${source.workspaceId}, c.text
               FROM jsonb_to_recordset(${chunksJson(chunks)}::jsonb) AS c(position int, text text)`.pipe(Effect.asVoid)

    // Chunks holding the whole query (web-search syntax: phrases, -word) rank above those holding only some of its
    // words; within each, ts_rank_cd normalised to 0…1 (option 32).
    const searchByWords = (
      workspaceId: string,
      customAiId: string,
      query: { readonly strict: string; readonly loose: string },
      limit: number
    ) =>
      lean<PassageRow>`
        WITH q AS (SELECT websearch_to_tsquery('english', ${query.strict}) AS strict,
                          websearch_to_tsquery('english', ${query.loose}) AS loose)
        SELECT c.source_id, s.title AS source_title, s.kind AS source_kind, s.reference, c.text,
               (CASE WHEN c.search @@ q.strict THEN 1 ELSE 0 END) + ts_rank_cd(c.search, q.loose, 32) AS rank
        FROM custom_ai_chunks c JOIN custom_ai_sources s ON s.id = c.source_id, q
        WHERE c.workspace_id = ${workspaceId} AND c.custom_ai_id = ${customAiId} AND c.search @@ q.loose
        ORDER BY rank DESC, s.position, c.source_id, c.position
        LIMIT ${limit}`

    return {
      lockCustomAi: (workspaceId, customAiId) =>
        lean`SELECT id FROM custom_ais WHERE workspace_id = ${workspaceId} AND id = ${customAiId} FOR UPDATE`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      count: (workspaceId, customAiId) =>
        lean<{ readonly n: number }>`SELECT count(*)::int AS n FROM custom_ai_sources
                                     WHERE workspace_id = ${workspaceId} AND custom_ai_id = ${customAiId}`.pipe(
          Effect.map((rows) => Number(rows[0]?.n ?? 0)),
          Effect.orDie
        ),
      nextPosition: (workspaceId, customAiId) =>
        lean<{ readonly p: number }>`SELECT coalesce(max(position) + 1, 0)::int AS p FROM custom_ai_sources
                                     WHERE workspace_id = ${workspaceId} AND custom_ai_id = ${customAiId}`.pipe(
          Effect.map((rows) => Number(rows[0]?.p ?? 0)),
          Effect.orDie
        ),
      insert: (s, content: IndexedContent) =>
        sql
          .withTransaction(
            Effect.zipRight(
              lean`INSERT INTO custom_ai_sources (id, workspace_id, custom_ai_id, kind, title, title_fixed, reference,
                                                  status, failure, body, characters, folder, position, media_id, content_version,
                                                  indexed_at, created_at, updated_at)
                   VALUES (${s.id}, ${s.workspaceId}, ${s.customAiId}, ${s.kind}, ${s.title}, ${s.titleFixed},
                           ${s.reference}, ${s.status}, ${s.failure}, ${content.text}, ${content.text.length},
                           ${s.folder}, ${s.position}, ${s.mediaId}, ${s.contentVersion}, ${s.indexedAt}, ${s.createdAt},
                           ${s.updatedAt})`,
              insertChunks(s, content.chunks)
            )
          )
          .pipe(Effect.orDie, withSpan("KnowledgeRepo.insert")),
      replaceContent: (workspaceId, sourceId, change) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const { content } = change
              const explicit = change.title ?? null
              // The row is updated first: its lock makes a concurrent re-index of the same source wait, so the
              // chunks below are never deleted and inserted by two at once.
              const rows = yield* lean<SourceRow>`
                UPDATE custom_ai_sources SET
                  status = ${content.status}, failure = ${content.failure}, body = ${content.text},
                  characters = ${content.text.length}, content_version = ${content.contentVersion},
                  title = coalesce(${explicit}::text,
                                   CASE WHEN title_fixed THEN title ELSE coalesce(${content.foundTitle}::text, title) END),
                  title_fixed = title_fixed OR ${explicit}::text IS NOT NULL,
                  reference = CASE WHEN ${change.reference !== undefined}::boolean THEN ${change.reference ?? null}::text
                                   ELSE reference END,
                  indexed_at = ${change.at}, updated_at = ${change.at}
                WHERE workspace_id = ${workspaceId} AND id = ${sourceId}
                RETURNING id, workspace_id, custom_ai_id, kind, title, title_fixed, reference, status, failure,
                          characters, folder, position, media_id, content_version, indexed_at, created_at, updated_at`
              const updated = firstSource(rows)
              if (Option.isNone(updated)) return updated
              yield* lean`DELETE FROM custom_ai_chunks WHERE source_id = ${sourceId}`
              yield* insertChunks(updated.value, content.chunks)
              return updated
            })
          )
          .pipe(Effect.orDie, withSpan("KnowledgeRepo.replaceContent")),
      relabel: (workspaceId, sourceId, labels, at) =>
        lean<SourceRow>`
          UPDATE custom_ai_sources SET
            title = coalesce(${labels.title ?? null}::text, title),
            title_fixed = title_fixed OR ${labels.title ?? null}::text IS NOT NULL,
            folder = CASE WHEN ${labels.folder !== undefined}::boolean THEN ${labels.folder ?? null}::text ELSE folder END,
            position = coalesce(${labels.position ?? null}::int, position),
            media_id = CASE WHEN ${labels.mediaId !== undefined}::boolean THEN ${labels.mediaId ?? null}::text
                            ELSE media_id END,
            updated_at = ${at}
          WHERE workspace_id = ${workspaceId} AND id = ${sourceId}
          RETURNING id, workspace_id, custom_ai_id, kind, title, title_fixed, reference, status, failure,
                    characters, folder, position, media_id, content_version, indexed_at, created_at, updated_at`.pipe(
          Effect.map(firstSource),
          Effect.orDie
        ),
      find: (workspaceId, customAiId, sourceId) =>
        lean<SourceRow>`
          SELECT id, workspace_id, custom_ai_id, kind, title, title_fixed, reference, status, failure, characters,
                 folder, position, media_id, content_version, indexed_at, created_at, updated_at
          FROM custom_ai_sources
          WHERE workspace_id = ${workspaceId} AND custom_ai_id = ${customAiId} AND id = ${sourceId}`.pipe(
          Effect.map(firstSource),
          Effect.orDie
        ),
      list: (workspaceId, customAiId) =>
        lean<SourceRow>`
          SELECT id, workspace_id, custom_ai_id, kind, title, title_fixed, reference, status, failure, characters,
                 folder, position, media_id, content_version, indexed_at, created_at, updated_at
          FROM custom_ai_sources
          WHERE workspace_id = ${workspaceId} AND custom_ai_id = ${customAiId}
          ORDER BY position, created_at, id`.pipe(
          Effect.map((rows) => rows.map(toSource)),
          Effect.orDie
        ),
      readText: (workspaceId, sourceId, offset, length) =>
        lean<{ readonly text: string }>`
          SELECT substr(body, ${offset + 1}::int, ${length}::int) AS text FROM custom_ai_sources
          WHERE workspace_id = ${workspaceId} AND id = ${sourceId}`.pipe(
          Effect.map((rows) => rows[0]?.text ?? ""),
          Effect.orDie
        ),
      remove: (workspaceId, customAiId, sourceId) =>
        lean`DELETE FROM custom_ai_sources
             WHERE workspace_id = ${workspaceId} AND custom_ai_id = ${customAiId} AND id = ${sourceId}
             RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      staleNotes: (workspaceId, customAiId) =>
        // A gone (deleted or trashed) note is stale until its source says so; a present one when it changed since.
        lean<SourceRow>`
          SELECT s.id, s.workspace_id, s.custom_ai_id, s.kind, s.title, s.title_fixed, s.reference, s.status,
                 s.failure, s.characters, s.folder, s.position, s.media_id, s.content_version, s.indexed_at, s.created_at,
                 s.updated_at
          FROM custom_ai_sources s
          LEFT JOIN items i ON i.id = s.reference AND i.workspace_id = s.workspace_id
          WHERE s.workspace_id = ${workspaceId} AND s.custom_ai_id = ${customAiId} AND s.kind = 'note'
            AND CASE WHEN i.id IS NULL OR i.trashed_at IS NOT NULL
                     THEN s.status = 'ready' OR s.failure IS DISTINCT FROM ${NOTE_DELETED}
                     ELSE s.content_version IS DISTINCT FROM i.updated_at END`.pipe(
          Effect.map((rows) => rows.map(toSource)),
          Effect.orDie
        ),
      arrange: (workspaceId, customAiId, changes, at) =>
        // Every change in one statement; a field a change leaves out keeps its value.
        lean<{ readonly id: string }>`
          UPDATE custom_ai_sources s SET
            title = coalesce(c.title, s.title),
            title_fixed = s.title_fixed OR c.title IS NOT NULL,
            folder = CASE WHEN c.set_folder THEN c.folder ELSE s.folder END,
            position = coalesce(c.position, s.position),
            media_id = CASE WHEN c.set_media THEN c.media_id ELSE s.media_id END,
            updated_at = ${at}
          FROM jsonb_to_recordset(${JSON.stringify(
            changes.map((change) => ({
              source_id: change.sourceId,
              title: change.title ?? null,
              set_folder: change.folder !== undefined,
              folder: change.folder ?? null,
              position: change.position ?? null,
              set_media: change.mediaId !== undefined,
              media_id: change.mediaId ?? null
            }))
          )}::jsonb) AS c(source_id text, title text, set_folder boolean, folder text, position int,
                          set_media boolean, media_id text)
          WHERE s.workspace_id = ${workspaceId} AND s.custom_ai_id = ${customAiId} AND s.id = c.source_id
          RETURNING s.id`.pipe(
          Effect.map((rows) => rows.map((r) => r.id)),
          Effect.orDie,
          withSpan("KnowledgeRepo.arrange")
        ),
      vectorsReady: embeddings.vectorsReady,
      unembedded: embeddings.unembedded,
      saveEmbeddings: embeddings.saveEmbeddings,
      search: (workspaceId, customAiId, query, limit) =>
        Effect.map(
          query.vector === undefined
            ? searchByWords(workspaceId, customAiId, query, limit)
            : embeddings.hybridSearch(workspaceId, customAiId, query, query.vector, limit),
          (rows) => rows.map(toPassage)
        ).pipe(Effect.orDie, withSpan("KnowledgeRepo.search"))
    }
  })
)
