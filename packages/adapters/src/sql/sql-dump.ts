/**
 * Moving off the embedded database: {@link exportSqlDump} writes the PGlite database as a plain SQL script made by
 * PostgreSQL's own `pg_dump`, and {@link importSqlDump} loads such a script into an empty PostgreSQL database, all of
 * it or nothing. The script is also what `psql -f` loads.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Clock, DateTime, Effect, Option, Schema } from "effect"
import type { MissingPackage } from "../optional-package.js"
import { migrations as svcMigrations } from "./migrations/index.js"
import { PgliteClient } from "./pglite.js"

/** Why a dump was not made or not loaded; the message says what to do instead. */
export class SqlDumpRefused extends Schema.TaggedError<SqlDumpRefused>()("SqlDumpRefused", {
  reason: Schema.Literal("not-embedded", "not-postgres", "not-an-export", "newer-schema", "not-empty", "not-public"),
  message: Schema.String
}) {}

/** The newest migration a database has applied. */
export interface SchemaVersion {
  readonly id: number
  readonly name: string
}

/** An export: the script, and the schema version it holds. */
export interface SqlDump {
  readonly text: string
  readonly schema: SchemaVersion | undefined
}

// The first line of every export: how `svc db import` knows the file is one, and which schema it holds.
const MARK = "-- svc db export"
const MARK_LINE = /^-- svc db export: schema (\d+)_([^\s,]+)|^-- svc db export: no schema/
const MIGRATIONS_TABLE = "effect_sql_migrations"

// Owners and grants name roles of the embedded database, which the PostgreSQL it goes to may not have.
const PG_DUMP_ARGS = ["--no-owner", "--no-privileges"] as const

const newestMigration = Effect.gen(function* () {
  const sql = yield* SqlClient
  const [table] = yield* sql<{ readonly found: string | null }>`SELECT to_regclass(${MIGRATIONS_TABLE}) AS found`
  if (table?.found == null) return undefined
  const [row] = yield* sql<{ readonly id: number; readonly name: string }>`
    SELECT migration_id AS id, name FROM ${sql(MIGRATIONS_TABLE)} ORDER BY migration_id DESC LIMIT 1`
  return row === undefined ? undefined : { id: row.id, name: row.name }
})

/** The newest migration this code knows. */
const knownMigration = (): number =>
  Math.max(0, ...Object.keys(svcMigrations).map((key) => Number(/^(\d+)_/.exec(key)?.[1] ?? 0)))

/** The embedded database as a plain SQL script, headed by the line that marks it as a svc export. */
export const exportSqlDump: Effect.Effect<SqlDump, SqlDumpRefused | SqlError | MissingPackage, SqlClient> = Effect.gen(
  function* () {
    const pglite = yield* Effect.serviceOption(PgliteClient)
    if (Option.isNone(pglite)) {
      return yield* new SqlDumpRefused({
        reason: "not-embedded",
        message:
          "svc db export reads the embedded database (DATA_DIR), but DATABASE_URL points this command at PostgreSQL: dump a PostgreSQL database with its own pg_dump instead, or unset DATABASE_URL"
      })
    }
    const schema = yield* newestMigration
    const text = yield* pglite.value.sqlDump(PG_DUMP_ARGS)
    const made = DateTime.formatIso(DateTime.unsafeMake(yield* Clock.currentTimeMillis))
    const mark = schema === undefined ? `${MARK}: no schema` : `${MARK}: schema ${schema.id}_${schema.name}`
    return { text: `${mark}, made ${made}; load it with svc db import or psql -f\n${text}`, schema }
  }
)

const settingLine = /^SET\s+([a-z_]+)\s*=/i

/**
 * The script with the `SET` lines of its preamble that this PostgreSQL does not know turned into comments: a dump
 * from the embedded PostgreSQL (a newer major version) sets parameters an older server lacks (`transaction_timeout`),
 * and any failed statement would undo the whole load. Only the preamble is read, line by line as pg_dump writes it;
 * the first line of another kind ends it, so no line of the data is ever touched.
 */
const withoutUnknownSettings = (text: string, known: ReadonlySet<string>): string => {
  const lines = text.split("\n")
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? ""
    const setting = settingLine.exec(line)
    if (setting?.[1] !== undefined) {
      if (!known.has(setting[1].toLowerCase())) lines[index] = `-- not known to this PostgreSQL: ${line}`
      continue
    }
    if (line.trim() === "" || line.startsWith("--") || line.startsWith("SELECT pg_catalog.set_config(")) continue
    break
  }
  return lines.join("\n")
}

/** What a load did. */
export interface SqlDumpLoaded {
  readonly schema: SchemaVersion | undefined
  readonly tables: number
}

/**
 * Loads an export into the PostgreSQL database of the `SqlClient`, in one transaction: all of it or nothing. Refuses
 * a file that is not an export, one made by a newer svc, and a database that already holds tables.
 */
export const importSqlDump = (text: string): Effect.Effect<SqlDumpLoaded, SqlDumpRefused | SqlError, SqlClient> =>
  Effect.gen(function* () {
    if (Option.isSome(yield* Effect.serviceOption(PgliteClient))) {
      return yield* new SqlDumpRefused({
        reason: "not-postgres",
        message:
          "svc db import loads an export into PostgreSQL: set DATABASE_URL to the empty PostgreSQL database to load it into"
      })
    }
    const mark = MARK_LINE.exec(text.slice(0, text.indexOf("\n") >>> 0))
    if (mark === null) {
      return yield* new SqlDumpRefused({
        reason: "not-an-export",
        message: `the file is not a svc db export (its first line is not "${MARK}: …"); load another SQL dump with psql -f`
      })
    }
    const schema = mark[1] === undefined ? undefined : { id: Number(mark[1]), name: mark[2] ?? "" }
    const known = knownMigration()
    if (schema !== undefined && schema.id > known) {
      return yield* new SqlDumpRefused({
        reason: "newer-schema",
        message: `the export holds schema ${schema.id}_${schema.name}, newer than this svc knows (up to ${known}): import it with that newer version of svc`
      })
    }
    const sql = yield* SqlClient
    const [where] = yield* sql<{ readonly schema: string | null }>`SELECT current_schema() AS schema`
    if (where?.schema !== "public") {
      return yield* new SqlDumpRefused({
        reason: "not-public",
        message: `the export's tables go to the schema public, but this connection's schema is ${where?.schema ?? "none"}: import into a database whose search_path starts with public`
      })
    }
    const present = yield* sql<{ readonly name: string }>`
      SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`
    if (present.length > 0) {
      const names = present.slice(0, 5).map((row) => row.name)
      return yield* new SqlDumpRefused({
        reason: "not-empty",
        message: `the database already holds ${present.length} table(s) (${names.join(", ")}${present.length > 5 ? ", …" : ""}): import into an empty database (createdb a new one), so nothing in it is mixed with the export`
      })
    }
    const settings = yield* sql<{ readonly name: string }>`SELECT name FROM pg_settings`
    const script = withoutUnknownSettings(text, new Set(settings.map((row) => row.name)))
    // The dump empties search_path for its own session; the pooled connection gets its default back.
    yield* sql.withTransaction(sql.unsafe(`${script}\nRESET search_path;`))
    const [loaded] = yield* sql<{ readonly tables: number }>`
      SELECT count(*)::int AS tables FROM information_schema.tables WHERE table_schema = 'public'`
    return { schema, tables: loaded?.tables ?? 0 }
  })
