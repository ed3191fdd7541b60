import { parseArgs } from "node:util"
import type { SqlClient } from "@effect/sql/SqlClient"
import { DatabaseLive, DataDirectoryLocked, migrations, runMigrations } from "@svc/adapters/sql"
import { Cause, ConfigProvider, Effect, Either, Exit, type Layer, Option } from "effect"
import { AppLive } from "../runtime.js"
import { createAccount, setPlan } from "./accounts.js"
import { createKey, listKeys, revokeKey } from "./keys.js"
import { type Output, report, UsageError } from "./output.js"
import { routeCommand, sendToServer } from "./server-route.js"
import { createCohort, createCustomAi, setStore, tagCustomer } from "./store.js"

/** The help text of `svc`. */
export const usage = `svc — the creator-business service for AI agents

Usage:
  svc serve                                  start the server (same as npm start)
  svc migrate                                apply database migrations and exit
  svc accounts create --email <e> --password <p> [--name <n>] [--plan free|starter|pro]
  svc plans set --email <e> --plan free|starter|pro
  svc keys create --email <e> [--name <n>] [--access full | --part <part>=<level> ...]
                  [--toolset <name>[,<name>...] ...] [--store <handle>] [--expires-in-days <n>]
  svc keys list --email <e>
  svc keys revoke <key id>
  svc store set --email <e> [--store <handle>] [--support-email <address>|none]
                [--card-processor connected|none] [--email-list-add-buyers on|off]
                [--email-double-opt-in on|off]
  svc custom-ais create --email <e> --name <n> [--store <handle>]
  svc cohorts create --email <e> --product <product id> --name <n> [--capacity <n>]
                     [--starts-on YYYY-MM-DD] [--store <handle>]
  svc customers tag --email <e> --customer <email> --tag <name> [--tag <name> ...] [--store <handle>]

Parts: workspace social highlights boards scheduling routines media custom_ai skills store
Levels: off read edit
Toolsets: the same names as parts, or all (a key's default toolsets; a request may name others)
Every command takes --json for machine-readable output.
Storage: DATABASE_URL (PostgreSQL) or DATA_DIR (embedded, default ./.data). While \`svc serve\` runs on DATA_DIR,
commands are sent to it over DATA_DIR/svc.sock (a Unix socket only its owner can use).`

const options = {
  email: { type: "string" },
  password: { type: "string" },
  name: { type: "string" },
  plan: { type: "string" },
  access: { type: "string" },
  part: { type: "string", multiple: true },
  toolset: { type: "string", multiple: true },
  store: { type: "string" },
  "expires-in-days": { type: "string" },
  "support-email": { type: "string" },
  "card-processor": { type: "string" },
  "email-list-add-buyers": { type: "string" },
  "email-double-opt-in": { type: "string" },
  product: { type: "string" },
  capacity: { type: "string" },
  "starts-on": { type: "string" },
  customer: { type: "string" },
  tag: { type: "string", multiple: true },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false }
} as const

type Parsed = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>
type Values = Parsed["values"]

/** The services a command runs on: the app's, as `AppLive` builds them. */
export type CommandServices = Layer.Layer.Success<typeof AppLive>

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
): Effect.Effect<void, unknown, CommandServices> => {
  const [group, action, target] = words
  // `migrate` never comes here: `runCommandOn` runs it on the database alone (see there).
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
          toolsets: values.toolset ?? [],
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
          cardProcessor: values["card-processor"],
          emailListAddBuyers: values["email-list-add-buyers"],
          emailDoubleOptIn: values["email-double-opt-in"]
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
    // Commands go to a running server before they open the directory; this one lost a race with its start.
    return `the server (pid ${error.pid}) holds the data directory ${error.dataDir}; it started while this command was opening it, run the command again to send it to the server`
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

/** Where a command's output goes: its result lines, and its error lines. */
export interface CommandLines {
  readonly stdout: (line: string) => void
  readonly stderr: (line: string) => void
}

/**
 * Where a command's program runs: on a database this process opens for it (the CLI), or on the services of the
 * running server (its admin socket). `database` runs `svc migrate`, which needs the database alone.
 */
export interface CommandRunner {
  readonly app: <A>(program: Effect.Effect<A, unknown, CommandServices>) => Promise<Exit.Exit<A, unknown>>
  readonly database: <A>(program: Effect.Effect<A, unknown, SqlClient>) => Promise<Exit.Exit<A, unknown>>
}

const parse = (argv: ReadonlyArray<string>): Either.Either<Parsed, unknown> => {
  try {
    return Either.right(parseArgs({ args: [...argv], options, allowPositionals: true, strict: true }))
  } catch (error) {
    return Either.left(error)
  }
}

// Help and command-line mistakes are answered without a database.
const needsDatabase = (parsed: Either.Either<Parsed, unknown>): boolean =>
  Either.isRight(parsed) && !parsed.right.values.help && parsed.right.positionals.length > 0

const printFailure = (lines: CommandLines, json: boolean, error: unknown): number => {
  const message = explain(error)
  lines.stderr(json ? JSON.stringify({ ok: false, error: message }) : `svc: ${message}`)
  return error instanceof UsageError ? 2 : 1
}

/**
 * Runs a command (everything but `serve`) on `runner`, prints to `lines`, and answers the exit code. The one
 * implementation of every command, for both ways in: the CLI process and a running server's admin socket.
 */
export const runCommandOn = async (
  argv: ReadonlyArray<string>,
  lines: CommandLines,
  runner: CommandRunner
): Promise<number> => {
  const parsed = parse(argv)
  if (Either.isLeft(parsed)) {
    lines.stderr(`${explain(parsed.left)}\n\n${usage}`)
    return 2
  }
  const { positionals, values } = parsed.right
  const output: Output = { json: values.json ?? false, print: lines.stdout }
  if (values.help || positionals.length === 0) {
    lines.stdout(usage)
    return 0
  }
  // `migrate` opens only the database: the app layer would apply the migrations before the command could.
  const exit =
    positionals.join(" ") === "migrate"
      ? await runner.database(migrate(output))
      : await runner.app(command(positionals, values, output))
  if (Exit.isSuccess(exit)) return 0
  const failure = Cause.failureOption(exit.cause)
  return printFailure(lines, output.json, Option.isSome(failure) ? failure.value : Cause.squash(exit.cause))
}

/**
 * Runs a CLI command (everything but `serve`) and answers the process exit code. On an embedded data directory
 * that a running server holds, the command is sent to that server over its admin socket (see `server-route.ts`)
 * and prints and exits as it would have here.
 */
export const runCommand = async (argv: ReadonlyArray<string>, io: CommandIo = {}): Promise<number> => {
  const lines: CommandLines = {
    stdout: io.stdout ?? ((line: string) => console.log(line)),
    stderr: io.stderr ?? ((line: string) => console.error(line))
  }
  // As `ConfigProvider.fromEnv` reads `process.env`: nested keys joined by `_`.
  const configured = <A, E>(program: Effect.Effect<A, E>) =>
    io.env === undefined
      ? program
      : Effect.withConfigProvider(program, ConfigProvider.fromMap(new Map(Object.entries(io.env)), { pathDelim: "_" }))
  const parsed = parse(argv)
  if (needsDatabase(parsed)) {
    const route = await Effect.runPromise(configured(routeCommand))
    if (route._tag === "SendToServer") {
      const sent = await Effect.runPromise(Effect.either(sendToServer(route, argv)))
      if (Either.isLeft(sent))
        return printFailure(lines, Either.isRight(parsed) && parsed.right.values.json === true, sent.left)
      for (const line of sent.right.stdout) lines.stdout(line)
      for (const line of sent.right.stderr) lines.stderr(line)
      return sent.right.exitCode
    }
    if (route.notice !== undefined) lines.stderr(route.notice)
  }
  return runCommandOn(argv, lines, {
    app: (program) => Effect.runPromiseExit(configured(program.pipe(Effect.provide(AppLive)))),
    database: (program) => Effect.runPromiseExit(configured(program.pipe(Effect.provide(DatabaseLive))))
  })
}
