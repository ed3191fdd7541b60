import { Data, Effect } from "effect"

/** How a command reports: a human text, or one JSON document for scripts (`--json`), printed by `print`. */
export interface Output {
  readonly json: boolean
  /** Writes one line of the result (standard output, for a command run by `svc`). */
  readonly print: (line: string) => void
}

/** Prints a command's result: `data` as JSON with `--json`, else the `text` lines. */
export const report = (output: Output, data: unknown, text: ReadonlyArray<string>) =>
  Effect.sync(() => {
    if (output.json) output.print(JSON.stringify(data, null, 2))
    else for (const line of text) output.print(line)
  })

/** A command-line mistake: the message and exit code 2. */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}
