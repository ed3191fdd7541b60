import { Console, Data, Effect } from "effect"

/** How a command reports: a human text, or one JSON document for scripts (`--json`). */
export interface Output {
  readonly json: boolean
}

/** Prints a command's result: `data` as JSON with `--json`, else the `text` lines. */
export const report = (output: Output, data: unknown, text: ReadonlyArray<string>) =>
  output.json
    ? Console.log(JSON.stringify(data, null, 2))
    : Effect.forEach(text, (line) => Console.log(line), { discard: true })

/** A command-line mistake: the message and exit code 2. */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}
