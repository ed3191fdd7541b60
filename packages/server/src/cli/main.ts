import { parseArgs } from "node:util"
import { DatabaseLive, DataDirectoryLocked, migrations, runMigrations } from "@svc/adapters/sql"
import { Cause, ConfigProvider, Effect, Exit, type Layer, Option } from "effect"
import { AppLive } from "../runtime.js"
import { createAccount, setPlan } from "./accounts.js"
import { createKey, listKeys, revokeKey } from "./keys.js"
import { type Output, report, UsageError } from "./output.js"
import { createCohort, createCustomAi, setStore, tagCustomer } from "./store.js"

/** The help text of `svc`. */
export const usage = `svc — the creator-business service for AI agents

Usage:
  svc serve                                  start the server (same as npm start)
  svc migrate                                apply database migrations and exit
  svc accounts create --email <e> --password <p> [--name <n>] [--plan free|starter|pro]
  svc plans set --email <e> --plan free|starter|pro
  svc keys create --email <e> [--name <n>] [--access full | --part <part>=<level> ...]
                  [--store <handle>] [--expires-in-days <n>]
  svc keys list --email <e>
  svc keys revoke <key id>
  svc store set --email <e> [--store <handle>] [--support-email <address>|none]
                [--card-processor connected|none]
  svc custom-ais create --email <e> --name <n> [--store <handle>]
  svc cohorts create --email <e> --product <product id> --name <n> [--capacity <n>]
                     [--starts-on YYYY-MM-DD] [--store <handle>]
  svc customers tag --email <e> --customer <email> --tag <name> [--tag <name> ...] [--store <handle>]

Parts: workspace social highlights boards scheduling routines media custom_ai skills store
Levels: off read edit
Every command takes --json for machine-readable output.
Storage: DATABASE_URL (PostgreSQL) or DATA_DIR (embedded, default ./.data).`

const options = {
  email: { type: "string" },
  password: { type: "string" },
  name: { type: "string" },
  plan: { type: "string" },
  access: { type: "string" },
  part: { type: "string", multiple: true },
  store: { type: "string" },
  "expires-in-days": { type: "string" },
  "support-email": { type: "string" },
  "card-processor": { type: "string" },
  product: { type: "string" },
  capacity: { type: "string" },
  "starts-on": { type: "string" },
  customer: { type: "string" },
  tag: { type: "string", multiple: true },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false }
} as const

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>["values"]

const migrate = (output: Output) =>
  Effect.gen(function* () {
    const applied = yield* runMigrations(migrations)
    yield* report(output, { applied: applied.map(([id, name]) => ({ id, name })) }, [
      applied.length === 0
        ? "The database is up to date."
        : `Applied ${applied.map(([id, name]) => `${id}_${name}`).join(", ")}.`
    ])
  })

const command = (
  words: ReadonlyArray<string>,
  values: Values,
  output: Output
): Effect.Effect<void, unknown, Layer.Layer.Success<typeof AppLive>> => {
  const [group, action, target] = words
  // `migrate` never comes here: `runCommand` runs it on the database alone (see there).
  switch (`${group ?? ""} ${action ?? ""}`.trim()) {
    case "accounts create":
      return createAccount(values, output)
    case "plans set":
      return setPlan(values, output)
    case "keys create":
      return createKey(
        {
          email: values.email,
          name: values.name,
          access: values.access,
          parts: values.part ?? [],
          store: values.store,
          expiresInDays: values["expires-in-days"]
        },
        output
      )
    case "keys list":
      return listKeys(values, output)
    case "keys revoke":
      return revokeKey(target, output)
    case "store set":
      return setStore(
        {
          email: values.email,
          store: values.store,
          supportEmail: values["support-email"],
          cardProcessor: values["card-processor"]
        },
        output
      )
    case "custom-ais create":
      return createCustomAi(values, output)
    case "cohorts create":
      return createCohort(
        {
          email: values.email,
          store: values.store,
          product: values.product,
          name: values.name,
          capacity: values.capacity,
          startsOn: values["starts-on"]
        },
        output
      )
    case "customers tag":
      return tagCustomer(
        { email: values.email, store: values.store, customer: values.customer, tags: values.tag ?? [] },
        output
      )
    default:
      return Effect.fail(
        new UsageError({ message: words.length === 0 ? usage : `unknown command: svc ${words.join(" ")}\n\n${usage}` })
      )
  }
}

const explain = (error: unknown): string => {
  if (error instanceof UsageError) return error.message
  if (error instanceof DataDirectoryLocked) {
    return `the server (pid ${error.pid}) holds the data directory ${error.dataDir}; stop it first, or point DATABASE_URL at PostgreSQL to run commands beside a running server`
  }
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") {
    return error.message
  }
  return String(error)
}

/**
 * What a command reads and writes besides its arguments. Left out, it is the process's own: its environment,
 * standard output and standard error. Tests and embedding code pass their own to run commands in-process.
 */
export interface CommandIo {
  /** The environment the configuration is read from (`DATABASE_URL`, `DATA_DIR`, …), instead of `process.env`. */
  readonly env?: Readonly<Record<string, string>>
  /** Takes each line of the result. */
  readonly stdout?: (line: string) => void
  /** Takes each line of a usage error or failure. */
  readonly stderr?: (line: string) => void
}

/** Runs a CLI command (everything but `serve`) and answers the process exit code. */
export const runCommand = async (argv: ReadonlyArray<string>, io: CommandIo = {}): Promise<number> => {
  const stdout = io.stdout ?? ((line: string) => console.log(line))
  const stderr = io.stderr ?? ((line: string) => console.error(line))
  let parsed: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
  } catch (error) {
    stderr(`${explain(error)}\n\n${usage}`)
    return 2
  }
  const output: Output = { json: parsed.values.json ?? false, print: stdout }
  if (parsed.values.help || parsed.positionals.length === 0) {
    stdout(usage)
    return 0
  }
  // `migrate` opens only the database: the app layer would apply the migrations before the command could.
  const program =
    parsed.positionals.join(" ") === "migrate"
      ? migrate(output).pipe(Effect.provide(DatabaseLive))
      : command(parsed.positionals, parsed.values, output).pipe(Effect.provide(AppLive))
  // As `ConfigProvider.fromEnv` reads `process.env`: nested keys joined by `_`.
  const configured =
    io.env === undefined
      ? program
      : Effect.withConfigProvider(program, ConfigProvider.fromMap(new Map(Object.entries(io.env)), { pathDelim: "_" }))
  const exit = await Effect.runPromiseExit(configured)
  if (Exit.isSuccess(exit)) return 0
  const failure = Cause.failureOption(exit.cause)
  const error = Option.isSome(failure) ? failure.value : Cause.squash(exit.cause)
  const message = explain(error)
  stderr(output.json ? JSON.stringify({ ok: false, error: message }) : `svc: ${message}`)
  return error instanceof UsageError ? 2 : 1
}
