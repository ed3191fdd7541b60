/**
 * What a command's handler runs on: where its lines go, and where its program runs. The CLI process and a running
 * server's admin socket each provide their own, so every command has one implementation for both ways in.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import { DataDirectoryLocked } from "@svc/adapters/sql"
import { Context, Data, Effect, type Layer } from "effect"
import type { AppLive } from "../runtime.js"
import { type Output, UsageError } from "./output.js"

/** The services a command runs on: the app's, as `AppLive` builds them. */
export type CommandServices = Layer.Layer.Success<typeof AppLive>

/** Where a command's output goes: its result lines, and its error lines. */
export interface CommandLines {
  readonly stdout: (line: string) => void
  readonly stderr: (line: string) => void
}

/**
 * Where a command's program runs: on a database this process opens for it (the CLI), or on the services of the
 * running server (its admin socket). `database` runs `svc migrate`, which needs the database alone; `serve` starts
 * the server, which only the CLI process can.
 */
export interface CommandRunner {
  readonly app: (program: Effect.Effect<void, unknown, CommandServices>) => Effect.Effect<void, unknown, CommandContext>
  readonly database: (program: Effect.Effect<void, unknown, SqlClient>) => Effect.Effect<void, unknown, CommandContext>
  readonly serve: Effect.Effect<void, unknown, CommandContext>
}

/** The context of one command line being run: its words, where its lines go, and where its program runs. */
export class CommandContext extends Context.Tag("svc/cli/CommandContext")<
  CommandContext,
  { readonly argv: ReadonlyArray<string>; readonly lines: CommandLines; readonly runner: CommandRunner }
>() {}

/** A failure already printed, and the exit code it ends the command with. */
export class CommandExit extends Data.TaggedError("CommandExit")<{ readonly code: number }> {}

const explain = (error: unknown): string => {
  if (error instanceof DataDirectoryLocked) {
    // Commands go to a running server before they open the directory; this one lost a race with its start.
    return `the server (pid ${error.pid}) holds the data directory ${error.dataDir}; it started while this command was opening it, run the command again to send it to the server`
  }
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") {
    return error.message
  }
  return String(error)
}

/** Prints a command's failure (text, or one JSON document with `--json`) and answers its exit code. */
export const printFailure = (lines: CommandLines, json: boolean, error: unknown): number => {
  const message = explain(error)
  lines.stderr(json ? JSON.stringify({ ok: false, error: message }) : `svc: ${message}`)
  return error instanceof UsageError ? 2 : 1
}

// A failure of the program is printed here, once; one printed already (a forwarded command's) keeps its code.
const reported = (json: boolean, program: Effect.Effect<void, unknown, CommandContext>) =>
  Effect.catchAll(program, (error) =>
    error instanceof CommandExit
      ? Effect.fail(error)
      : Effect.flatMap(CommandContext, ({ lines }) =>
          Effect.fail(new CommandExit({ code: printFailure(lines, json, error) }))
        )
  )

/** Runs a command on the app's services, printing its result to standard output (`--json`: as one JSON document). */
export const onApp = (json: boolean, command: (output: Output) => Effect.Effect<void, unknown, CommandServices>) =>
  Effect.flatMap(CommandContext, ({ lines, runner }) =>
    reported(json, runner.app(command({ json, print: lines.stdout })))
  )

/** Runs a command on the database alone (`svc migrate`). */
export const onDatabase = (json: boolean, command: (output: Output) => Effect.Effect<void, unknown, SqlClient>) =>
  Effect.flatMap(CommandContext, ({ lines, runner }) =>
    reported(json, runner.database(command({ json, print: lines.stdout })))
  )

/** Starts the server, where the runner can (`svc serve`). */
export const serve = Effect.flatMap(CommandContext, ({ runner }) => reported(false, runner.serve))
