import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { generateGraphqlSdl, SDL_PATH } from "./graphql-sdl.js"

const root = join(import.meta.dirname, "..")

// A tool or store schema changed, and with it the GraphQL schema, without `npm run generate`: the committed SDL that
// clients generate their types from would lie.
it.effect(
  "the committed schema.graphql is the live GraphQL schema",
  () =>
    Effect.gen(function* () {
      const live = yield* generateGraphqlSdl
      const committed = yield* Effect.promise(() => readFile(join(root, SDL_PATH), "utf8"))
      expect(committed, `${SDL_PATH} is stale: run npm run generate and commit the result`).toBe(live.text)
    }),
  60_000
)
