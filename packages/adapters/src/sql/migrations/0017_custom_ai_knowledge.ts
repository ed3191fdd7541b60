import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // A Custom AI's knowledge sources with their whole text. A failed source (a page that could not be fetched, a
  // deleted note) keeps its row and its reason, with no text and no chunks, until it is refreshed.
  `CREATE TABLE custom_ai_sources (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    custom_ai_id text NOT NULL REFERENCES custom_ais (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('text', 'note', 'url', 'file')),
    title text NOT NULL,
    title_fixed boolean NOT NULL,
    reference text,
    status text NOT NULL CHECK (status IN ('ready', 'failed')),
    failure text,
    body text NOT NULL,
    characters integer NOT NULL,
    folder text,
    position integer NOT NULL,
    content_version timestamptz,
    indexed_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  "CREATE INDEX custom_ai_sources_order ON custom_ai_sources (custom_ai_id, position, created_at, id)",
  // Finds the sources that follow a note, to see whether it changed since they were indexed.
  "CREATE INDEX custom_ai_sources_notes ON custom_ai_sources (custom_ai_id, reference) WHERE kind = 'note'",
  // The indexed chunks, ranked with ts_rank_cd over an English tsvector. Embeddings (pgvector) come later.
  `CREATE TABLE custom_ai_chunks (
    source_id text NOT NULL REFERENCES custom_ai_sources (id) ON DELETE CASCADE,
    position integer NOT NULL,
    custom_ai_id text NOT NULL REFERENCES custom_ais (id) ON DELETE CASCADE,
    workspace_id text NOT NULL,
    text text NOT NULL,
    search tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
    PRIMARY KEY (source_id, position)
  )`,
  "CREATE INDEX custom_ai_chunks_search ON custom_ai_chunks USING gin (search)",
  "CREATE INDEX custom_ai_chunks_custom_ai ON custom_ai_chunks (custom_ai_id)"
]

/** Custom AI knowledge: sources and their full-text indexed chunks. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
