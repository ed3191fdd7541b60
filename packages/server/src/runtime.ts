import { databaseConfig } from "@svc/adapters"
import { AuthSettings, CoreLive } from "@svc/core"
import { Effect, Layer } from "effect"
import { ServerConfig } from "./config.js"
import { storageLayer } from "./storage.js"

/** Auth settings from the server configuration. */
export const AuthSettingsLive = Layer.effect(
  AuthSettings,
  Effect.map(ServerConfig, (config) => ({ rateLimitExemptKeyIds: new Set(config.rateLimitExemptKeyIds) }))
)

/**
 * The core with its ports, on the database the environment names (`DATABASE_URL` or `DATA_DIR`). The
 * outgoing HTTP sender is added where the server is served (`serve.ts`): the CLI never sends.
 */
export const AppLive = Layer.unwrapEffect(
  Effect.map(databaseConfig, (database) =>
    CoreLive.pipe(Layer.provideMerge(storageLayer(database)), Layer.provideMerge(AuthSettingsLive))
  )
)
