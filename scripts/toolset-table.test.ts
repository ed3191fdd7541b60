import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { generateToolsetTable, README_PATH, withToolsetTable } from "./toolset-table.js"

const root = join(import.meta.dirname, "..")

// A tool added, moved or reworded without `npm run generate`: the README's counts and sizes would lie.
it.effect(
  "the README's toolset table is what the live tool registry serves",
  () =>
    Effect.gen(function* () {
      const readme = yield* Effect.promise(() => readFile(join(root, README_PATH), "utf8"))
      const table = yield* generateToolsetTable
      expect(table).toMatch(/^\| `all` \| \d+ \| [\d,]+ \| \d+ tools, [\d,]+ bytes \|$/m)
      expect(readme, `${README_PATH}'s toolset table is stale: run npm run generate and commit the result`).toBe(
        withToolsetTable(readme, table)
      )
    }),
  120_000
)
