import { Ai, Http, Sql } from "@svc/adapters"
import { makeGraphqlSchema } from "@svc/adapters/graphql"
import { HttpSenderLive } from "@svc/adapters/http-sender"
import { AuthSettings } from "@svc/core/auth"
import { App, Storage } from "@svc/server"
import { Effect, Layer } from "effect"
import { printSchema } from "graphql"
import type { GeneratedFile } from "./client-codegen.js"

/** Where the GraphQL schema's SDL is committed. */
export const SDL_PATH = "schema.graphql"

const HEADER =
  "# The GraphQL schema of svc (/graphql), printed from the live schema by `npm run generate`. Do not edit.\n\n"

/**
 * The SDL of the GraphQL schema the server serves: built from the served tool registry and the store API contract on a
 * throw-away in-memory database, as the server builds it at start-up.
 */
export const generateGraphqlSdl: Effect.Effect<GeneratedFile> = Effect.map(makeGraphqlSchema, (schema) => ({
  path: SDL_PATH,
  text: `${HEADER}${printSchema(schema)}\n`
})).pipe(
  Effect.provide(
    App.ServedCoreLive.pipe(
      Layer.provideMerge(Storage.storageLayer(Sql.DatabaseConfig.Pglite({ dataDir: undefined }))),
      Layer.provide(AuthSettings.Default),
      Layer.provide(Ai.CustomAiPortsNoModel),
      // The webhook test sends of the store part go out through the SSRF-safe sender; nothing is sent here.
      Layer.merge(HttpSenderLive),
      // Discount codes answer links on the public address; the SDL names none, so any address prints the same.
      Layer.merge(Http.PublicUrl.layer("http://localhost:8787"))
    )
  ),
  Effect.scoped,
  // An in-memory database that cannot open is a broken install, not an outcome to handle.
  Effect.orDie
)
