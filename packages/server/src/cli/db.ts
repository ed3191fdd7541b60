/**
 * `svc db export` and `svc db import`: the way from the embedded database to PostgreSQL. The export is a plain SQL
 * script made by PostgreSQL's own pg_dump (see `@svc/adapters/sql`'s `sql-dump.ts`); the import loads it into an
 * empty PostgreSQL database in one transaction.
 */
import { existsSync } from "node:fs"
import { readFile, rename, rm, writeFile } from "node:fs/promises"
import path from "node:path"
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { DatabaseConfig, databaseConfig, exportSqlDump, importSqlDump } from "@svc/adapters/sql"
import { Effect } from "effect"
import { CommandContext, CommandExit, onDatabase, printFailure } from "./command-context.js"
import { report, UsageError } from "./output.js"

const json = Options.boolean("json").pipe(
  Options.withDescription("Print the result (or the failure, on standard error) as one JSON document.")
)

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(bytes < 1_048_576 ? 2 : 1)} MB`

/**
 * Writes `text` to `file` whole or not at all: into a file beside it first, then renamed over it, so a crash or a
 * full disk never leaves half an export where a whole one is expected.
 */
const writeWhole = (file: string, text: string, force: boolean) =>
  Effect.tryPromise({
    try: async () => {
      if (!force && existsSync(file)) {
        throw new UsageError({ message: `${file} already exists: name another file, or add --force to replace it` })
      }
      const partial = `${file}.partial-${process.pid}`
      try {
        await writeFile(partial, text, { flag: "wx", mode: 0o600 })
        await rename(partial, file)
      } catch (cause) {
        await rm(partial, { force: true })
        throw cause
      }
    },
    catch: (cause) =>
      cause instanceof UsageError ? cause : new Error(`could not write ${file}: ${(cause as Error).message}`)
  })

const readScript = (file: string) =>
  Effect.tryPromise({
    try: () => readFile(file, "utf8"),
    catch: (cause) => new Error(`could not read ${file}: ${(cause as Error).message}`)
  })

/** The command line with `file` named by its absolute path: a server's admin socket may run it elsewhere. */
const withAbsoluteFile = <A, E>(
  file: string,
  program: (absolute: string) => Effect.Effect<A, E, CommandContext>
): Effect.Effect<A, E, CommandContext> =>
  Effect.flatMap(CommandContext, (context) => {
    const absolute = path.resolve(file)
    const at = context.argv.indexOf(file, 2)
    const argv = at < 0 ? context.argv : context.argv.map((word, index) => (index === at ? absolute : word))
    return program(absolute).pipe(Effect.provideService(CommandContext, { ...context, argv }))
  })

/** Refuses an export of a data directory that holds no database yet, before opening it would make one. */
const embeddedDatabaseThere = Effect.flatMap(databaseConfig, (database) =>
  DatabaseConfig.$is("Pglite")(database) &&
  database.dataDir !== undefined &&
  !existsSync(path.join(path.resolve(database.dataDir), "PG_VERSION"))
    ? Effect.fail(
        new UsageError({
          message: `there is no embedded database in ${path.resolve(database.dataDir)}: set DATA_DIR to the directory svc serve ran on`
        })
      )
    : Effect.void
)

// A refusal before the database opens is printed as the command's own failures are.
const printedRefusal = <E>(json: boolean, check: Effect.Effect<void, E>) =>
  Effect.catchAll(check, (error) =>
    Effect.flatMap(CommandContext, ({ lines }) =>
      Effect.fail(new CommandExit({ code: printFailure(lines, json, error) }))
    )
  )

const exportCommand = Command.make(
  "export",
  {
    file: Args.text({ name: "file" }).pipe(Args.withDescription("The SQL file to write (e.g. svc-export.sql).")),
    force: Options.boolean("force").pipe(Options.withDescription("Replace the file if it exists.")),
    json
  },
  (flags) =>
    withAbsoluteFile(flags.file, (file) =>
      Effect.zipRight(
        printedRefusal(flags.json, embeddedDatabaseThere),
        onDatabase(flags.json, (output) =>
          Effect.gen(function* () {
            const dump = yield* exportSqlDump
            yield* writeWhole(file, dump.text, flags.force)
            const bytes = Buffer.byteLength(dump.text)
            const schema = dump.schema === undefined ? null : `${dump.schema.id}_${dump.schema.name}`
            yield* report(output, { file, bytes, schema }, [
              `Wrote the embedded database to ${file} (${megabytes(bytes)}, schema ${schema ?? "none"}).`,
              `Load it into an empty PostgreSQL database with: DATABASE_URL=postgres://… svc db import ${file}`
            ])
          })
        )
      )
    )
).pipe(
  Command.withDescription(
    "Write the embedded database (DATA_DIR) as a plain SQL script made by PostgreSQL's pg_dump, to load into PostgreSQL with svc db import or psql -f. Needs @electric-sql/pglite-tools installed. While svc serve runs on DATA_DIR, the server writes it (between transactions)."
  )
)

const importCommand = Command.make(
  "import",
  {
    file: Args.text({ name: "file" }).pipe(Args.withDescription("The file svc db export wrote.")),
    json
  },
  (flags) =>
    onDatabase(flags.json, (output) =>
      Effect.gen(function* () {
        const text = yield* readScript(path.resolve(flags.file))
        const loaded = yield* importSqlDump(text)
        const schema = loaded.schema === undefined ? null : `${loaded.schema.id}_${loaded.schema.name}`
        yield* report(output, { file: path.resolve(flags.file), tables: loaded.tables, schema }, [
          `Loaded ${flags.file} into PostgreSQL: ${loaded.tables} tables, schema ${schema ?? "none"}.`,
          "Start svc serve with this DATABASE_URL; keep SVC_SECRET_KEY as it was, if it was set (else the key is in the data)."
        ])
      })
    )
).pipe(
  Command.withDescription(
    "Load a file svc db export wrote into the empty PostgreSQL database DATABASE_URL names, in one transaction: all of it or nothing."
  )
)

/** `svc db …` */
export const dbCommand = Command.make("db").pipe(
  Command.withDescription("Move the embedded database to PostgreSQL: export it as SQL, then import that."),
  Command.withSubcommands([exportCommand, importCommand])
)
