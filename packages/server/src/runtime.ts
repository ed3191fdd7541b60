import { databaseConfig } from "@svc/adapters/sql"
import { CoreLive, everyToolset, toolServerLive } from "@svc/core"
import { AuthSettings } from "@svc/core/auth"
import { Effect, Layer } from "effect"
import { ServerConfig } from "./config.js"
import { storageLayer } from "./storage.js"

/** Auth settings from the server configuration. */
export const AuthSettingsLive = Layer.effect(
  AuthSettings,
  Effect.map(ServerConfig, (config) => ({ rateLimitExemptKeyIds: new Set(config.rateLimitExemptKeyIds) }))
)

/** The tools `svc` serves: every area's (a server that serves fewer lists its own toolsets here). */
export const servedToolsets = everyToolset

/** Every core service and the tool server, over the ports the caller provides. */
export const ServedCoreLive = toolServerLive(servedToolsets).pipe(Layer.provideMerge(CoreLive))

/**
 * The core with its ports, on the database the environment names (`DATABASE_URL` or `DATA_DIR`). The
 * outgoing HTTP sender is added where the server is served (`serve.ts`): the CLI never sends.
 */
export const AppLive = Layer.unwrapEffect(
  Effect.map(databaseConfig, (database) =>
    ServedCoreLive.pipe(Layer.provideMerge(storageLayer(database)), Layer.provideMerge(AuthSettingsLive))
  )
)
