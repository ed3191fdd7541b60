/**
 * Running the `svc` command line: `runCommand` for the CLI process (and code that embeds it), `runCommandLine` for
 * any runner (the admin socket's). The commands themselves are in `commands.ts`; parsing and help are @effect/cli's.
 */
import { readFileSync } from "node:fs"
import { stripVTControlCharacters } from "node:util"
import * as Command from "@effect/cli/Command"
import * as CommandDescriptor from "@effect/cli/CommandDescriptor"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { DatabaseLive } from "@svc/adapters/sql"
import { Cause, Console, ConfigProvider, Effect, HashMap, HashSet, type Layer, Option, Schema } from "effect"
import { AppLive } from "../runtime.js"
import { CommandContext, CommandExit, type CommandLines, type CommandRunner, printFailure } from "./command-context.js"
import { svcCommand, svcSubcommands } from "./commands.js"
import { routeCommand, sendToServer } from "./server-route.js"

export {
  CommandContext,
  CommandExit,
  type CommandLines,
  type CommandRunner,
  type CommandServices
} from "./command-context.js"
export { svcCommand, svcSubcommands } from "./commands.js"

// `svc --version`: this package's version, read beside dist/ and src/ alike (both sit two levels under it).
const version = Schema.decodeUnknownSync(Schema.parseJson(Schema.Struct({ version: Schema.String })))(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8")
).version

const svc = Command.run(svcCommand, { name: "svc", version })

const text = (args: ReadonlyArray<unknown>, colors: boolean) => {
  const joined = args.map(String).join(" ").replace(/\n$/, "")
  return colors ? joined : stripVTControlCharacters(joined)
}

// @effect/cli writes help, the version and completions with Console.log: here, to the command's standard output.
// Its only Console.error is a parse failure, which it then fails with as a ValidationError; `printUsageError`
// prints that one (in text or JSON), so the copy is not printed.
const onCommandConsole =
  (lines: CommandLines, colors: boolean) =>
  <A, E, R>(program: Effect.Effect<A, E, R>) =>
    Console.consoleWith((current) =>
      Effect.withConsole(program, {
        ...current,
        log: (...args) => Effect.sync(() => lines.stdout(text(args, colors))),
        error: () => Effect.void
      })
    )

// The command a mistaken line was meant for: its leading words that name a command and a subcommand of it.
const commandPath = ([first = "", second = ""]: ReadonlyArray<string>): ReadonlyArray<string> => {
  const command = svcSubcommands.find(({ descriptor }) => HashSet.has(CommandDescriptor.getNames(descriptor), first))
  if (command === undefined) return []
  return HashMap.has(CommandDescriptor.getSubcommands(command.descriptor), second) ? [first, second] : [first]
}

// @effect/cli answers `--help` only right after a command's words; as before, it is answered anywhere in the line
// (`svc keys create --email ada@example.com --help`), with the help of the command the line names.
const helpAnywhere = (argv: ReadonlyArray<string>): ReadonlyArray<string> =>
  argv.includes("--help") || argv.includes("-h") ? [...commandPath(argv), "--help"] : argv

const printUsageError = (lines: CommandLines, argv: ReadonlyArray<string>, error: ValidationError.ValidationError) => {
  const path = commandPath(argv)
  const message = ValidationError.isCommandMismatch(error)
    ? `unknown command: svc ${argv.join(" ")} (svc --help lists the commands)`
    : `${stripVTControlCharacters(HelpDoc.toAnsiText(error.error)).trim()} (see svc ${[...path, "--help"].join(" ")})`
  // The line did not parse, so `--json` is looked for among its words.
  lines.stderr(argv.includes("--json") ? JSON.stringify({ ok: false, error: message }) : `svc: ${message}`)
  return 2
}

/**
 * Runs the command line `argv` (the words after `svc`) with `runner`, prints to `lines`, and answers the exit code:
 * 0, 1 for a failure, 2 for a mistake in the command line (a usage error). The one implementation of every command,
 * for both ways in: the CLI process and a running server's admin socket. `colors` keeps the help's ANSI styles.
 */
export const runCommandLine = (
  argv: ReadonlyArray<string>,
  lines: CommandLines,
  runner: CommandRunner,
  options: { readonly colors?: boolean } = {}
): Effect.Effect<number> =>
  svc(["node", "svc", ...helpAnywhere(argv)]).pipe(
    Effect.as(0),
    onCommandConsole(lines, options.colors ?? false),
    Effect.provide(NodeContext.layer),
    Effect.provideService(CommandContext, { argv, lines, runner }),
    Effect.catchAllCause((cause) => {
      const failure = Cause.failureOption(cause)
      if (Option.isSome(failure) && failure.value instanceof CommandExit) return Effect.succeed(failure.value.code)
      if (Option.isSome(failure) && ValidationError.isValidationError(failure.value)) {
        return Effect.sync(() => printUsageError(lines, argv, failure.value as ValidationError.ValidationError))
      }
      return Effect.sync(() => printFailure(lines, argv.includes("--json"), Cause.squash(cause)))
    })
  )

/**
 * Runs a command's program in this process, on the database the environment names; on an embedded data directory
 * that a running server holds, sends the command line to that server over its admin socket (see
 * `server-route.ts`), which prints and exits as it would have here.
 */
const routed =
  <R>(layer: Layer.Layer<R, unknown>) =>
  (program: Effect.Effect<void, unknown, R>): Effect.Effect<void, unknown, CommandContext> =>
    Effect.gen(function* () {
      const { argv, lines } = yield* CommandContext
      const route = yield* routeCommand
      if (route._tag === "SendToServer") {
        const reply = yield* sendToServer(route, argv)
        for (const line of reply.stdout) lines.stdout(line)
        for (const line of reply.stderr) lines.stderr(line)
        if (reply.exitCode !== 0) return yield* new CommandExit({ code: reply.exitCode })
        return
      }
      if (route.notice !== undefined) lines.stderr(route.notice)
      yield* Effect.provide(program, layer)
    })

const processRunner: CommandRunner = {
  app: routed(AppLive),
  database: routed(DatabaseLive),
  // The server takes the process over: it keeps it until SIGINT or SIGTERM, then closes and exits.
  serve: Effect.promise(() => import("../serve.js")).pipe(Effect.map(({ runServer }) => runServer()))
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

/**
 * Runs a CLI command and answers the process exit code (`svc serve` answers 0 at once and leaves the server
 * running). Lines go to the process's own output as they come; given `stdout` or `stderr`, they are handed over
 * once the command has ended, so that an exception those throw is this function's own.
 */
export const runCommand = async (argv: ReadonlyArray<string>, io: CommandIo = {}): Promise<number> => {
  // As `ConfigProvider.fromEnv` reads `process.env`: nested keys joined by `_`.
  const configured = <A, E>(program: Effect.Effect<A, E>) =>
    io.env === undefined
      ? program
      : Effect.withConfigProvider(program, ConfigProvider.fromMap(new Map(Object.entries(io.env)), { pathDelim: "_" }))
  if (io.stdout === undefined && io.stderr === undefined) {
    const lines: CommandLines = { stdout: (line) => console.log(line), stderr: (line) => console.error(line) }
    const colors = process.stdout.isTTY === true
    return Effect.runPromise(configured(runCommandLine(argv, lines, processRunner, { colors })))
  }
  const printed: Array<readonly ["stdout" | "stderr", string]> = []
  const lines: CommandLines = {
    stdout: (line) => printed.push(["stdout", line]),
    stderr: (line) => printed.push(["stderr", line])
  }
  const exitCode = await Effect.runPromise(configured(runCommandLine(argv, lines, processRunner)))
  const stdout = io.stdout ?? ((line: string) => console.log(line))
  const stderr = io.stderr ?? ((line: string) => console.error(line))
  for (const [stream, line] of printed) (stream === "stdout" ? stdout : stderr)(line)
  return exitCode
}
