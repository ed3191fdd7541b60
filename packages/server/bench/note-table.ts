/**
 * The note the bench's database-backed servers other than ours read: their own table, seeded with the note our
 * server made, read with the one-note form of our repository's query. The reference and the bare read share it.
 * A process learns where the data lives from `REF_ENGINE=pglite|postgres`, `REF_DATA_DIR` or `REF_DATABASE_URL`,
 * and the note from `REF_NOTE` (JSON).
 */
import { PGlite } from "@electric-sql/pglite"
import { loadPgPool } from "./pg.js"

/** Rows in, rows out. `name` prepares the text under that name on PostgreSQL (PGlite ignores it). */
export interface Database {
  readonly query: (
    text: string,
    values: ReadonlyArray<unknown>,
    name?: string
  ) => Promise<ReadonlyArray<Record<string, unknown>>>
  readonly close: () => Promise<void>
}

/** The note every server reads, as our server made it. */
export interface SeedNote {
  readonly id: string
  readonly workspaceId: string
  readonly title: string
  readonly markdown: string
}

/**
 * Our repository's note read for one note, on the bench's table. (Ours gathers the reads that arrive together into
 * one statement over a list of keys, `ItemsRepo.findNote`; these servers read one row per call, as most do.)
 */
export const NOTE_READ = `SELECT id, type, title, url, body, created_at, updated_at FROM reference_notes
       WHERE id = $1 AND workspace_id = $2 AND type = 'note' AND trashed_at IS NULL`

/** Opens the engine named by the environment: a pool of 10 (as `@effect/sql-pg` gives ours), or PGlite. */
export const openDatabase = async (): Promise<Database> => {
  if (process.env.REF_ENGINE === "postgres") {
    const Pool = loadPgPool()
    const pool = new Pool({ connectionString: process.env.REF_DATABASE_URL ?? "", max: 10 })
    return {
      query: async (text, values, name) =>
        (await (name === undefined ? pool.query(text, [...values]) : pool.query({ name, text, values: [...values] })))
          .rows,
      close: () => pool.end()
    }
  }
  const db = await PGlite.create({ dataDir: process.env.REF_DATA_DIR ?? "" })
  return {
    query: async (text, values) => (await db.query<Record<string, unknown>>(text, [...values])).rows,
    close: () => db.close()
  }
}

/** Creates the table when missing and puts the seed note in it; answers the seed. */
export const seedNotes = async (db: Database): Promise<SeedNote> => {
  await db.query(
    `CREATE TABLE IF NOT EXISTS reference_notes (
      id text PRIMARY KEY, workspace_id text NOT NULL, type text NOT NULL, title text NOT NULL, url text,
      body text NOT NULL DEFAULT '', created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
      trashed_at timestamptz)`,
    []
  )
  const seed = JSON.parse(process.env.REF_NOTE ?? "{}") as SeedNote
  await db.query(
    `INSERT INTO reference_notes (id, workspace_id, type, title, body, created_at, updated_at)
     VALUES ($1, $2, 'note', $3, $4, now(), now()) ON CONFLICT (id) DO NOTHING`,
    [seed.id, seed.workspaceId, seed.title, seed.markdown]
  )
  return seed
}

/** A note row as our answer shows it. */
export const noteOf = (row: Record<string, unknown>) => {
  const body = String(row.body)
  return {
    id: String(row.id),
    title: String(row.title),
    markdown: body,
    characters: body.length,
    createdAt: new Date(String(row.created_at)).toISOString(),
    updatedAt: new Date(String(row.updated_at)).toISOString()
  }
}
