import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // The server's licensed music catalog, one for every workspace, loaded by the operator (`svc music import`).
  // `title_key` and `artist_key` are the folded forms matching and search compare (lower-case, no accents, single
  // spaces), computed by the core so both engines compare the same text without an extension.
  `CREATE TABLE music_tracks (
    id text PRIMARY KEY,
    title text NOT NULL,
    artist text NOT NULL,
    title_key text NOT NULL,
    artist_key text NOT NULL,
    duration_seconds integer CHECK (duration_seconds > 0),
    isrc text UNIQUE CHECK (isrc ~ '^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$'),
    usage_notes text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  // A track without an ISRC is known by its title and artist: one such track per name.
  "CREATE UNIQUE INDEX music_tracks_unnumbered_name ON music_tracks (title_key, artist_key) WHERE isrc IS NULL",
  "CREATE INDEX music_tracks_name ON music_tracks (title_key, artist_key)"
]

/** The licensed music catalog that `svc_search_instagram_music` searches. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
