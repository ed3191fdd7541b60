/** The GraphQL face's limits and switches are read from `SVC_GRAPHQL_*` at start-up and checked there. */
import { describe, expect, it } from "@effect/vitest"
import { DEFAULT_GRAPHQL_SETTINGS } from "@svc/adapters/http"
import { ConfigProvider, Effect, Either } from "effect"
import { ServerConfig } from "../src/config.js"

const read = (env: Record<string, string>) =>
  Effect.either(
    Effect.withConfigProvider(
      Effect.map(ServerConfig, (config) => config.graphql),
      ConfigProvider.fromMap(new Map(Object.entries(env)))
    )
  )

describe("SVC_GRAPHQL_* configuration", () => {
  it.effect("uses the documented defaults when nothing is set", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toEqual(Either.right(DEFAULT_GRAPHQL_SETTINGS))
    })
  )

  it.effect("reads every limit and switch", () =>
    Effect.gen(function* () {
      const settings = yield* read({
        SVC_GRAPHQL_MAX_DEPTH: "6",
        SVC_GRAPHQL_MAX_COST: "900",
        SVC_GRAPHQL_MAX_ALIASES: "4",
        SVC_GRAPHQL_MAX_TOKENS: "500",
        SVC_GRAPHQL_MAX_BATCH: "1",
        SVC_GRAPHQL_INTROSPECTION: "false",
        SVC_GRAPHQL_GRAPHIQL: "false",
        SVC_GRAPHQL_POLL_INTERVAL_MS: "250"
      })
      expect(settings).toEqual(
        Either.right({
          maxDepth: 6,
          maxCost: 900,
          maxAliases: 4,
          maxTokens: 500,
          maxBatch: 1,
          introspection: false,
          graphiql: false,
          pollIntervalMs: 250
        })
      )
    })
  )

  it.effect("refuses a limit below 1, a number that is not one and a switch that is not a boolean", () =>
    Effect.gen(function* () {
      const message = (env: Record<string, string>) =>
        Effect.map(read(env), (answer) => (Either.isLeft(answer) ? String(answer.left) : "accepted"))
      expect(yield* message({ SVC_GRAPHQL_MAX_DEPTH: "0" })).toContain("SVC_GRAPHQL_MAX_DEPTH must be at least 1")
      expect(yield* message({ SVC_GRAPHQL_MAX_COST: "lots" })).toContain("SVC_GRAPHQL_MAX_COST")
      expect(yield* message({ SVC_GRAPHQL_INTROSPECTION: "maybe" })).toContain("SVC_GRAPHQL_INTROSPECTION")
    })
  )
})
