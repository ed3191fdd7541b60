import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { generateClientSources } from "./client-codegen.js"

const root = join(import.meta.dirname, "..")

// A tool or store API schema changed without `npm run generate`: the client's committed types would lie.
it.effect(
  "the client's generated sources match the live tool registry and store API contract",
  () =>
    Effect.gen(function* () {
      const files = yield* generateClientSources
      expect(files.map((file) => file.path).sort()).toEqual([
        "packages/client/src/generated/store-api.ts",
        "packages/client/src/generated/tools-api.ts",
        "packages/client/src/generated/tools.ts"
      ])
      for (const file of files) {
        const committed = yield* Effect.promise(() => readFile(join(root, file.path), "utf8"))
        expect(committed, `${file.path} is stale: run npm run generate and commit the result`).toBe(file.text)
      }
    }),
  60_000
)
