import { DocumentTextLive } from "@svc/adapters/ai"
import { PageFetcherLive } from "@svc/adapters/http-sender"
import { databaseConfig } from "@svc/adapters/sql"
import { CoreLive, everyToolset, toolServerLive } from "@svc/core"
import { AuthSettings } from "@svc/core/auth"
import { AskSettings } from "@svc/core/custom-ai"
import { Effect, Layer } from "effect"
import { ChatModelLive } from "./ai-config.js"
import { ServerConfig } from "./config.js"
import { storageLayer } from "./storage.js"

/** Auth settings from the server configuration. */
export const AuthSettingsLive = Layer.effect(
  AuthSettings,
  Effect.map(ServerConfig, (config) => ({ rateLimitExemptKeyIds: new Set(config.rateLimitExemptKeyIds) }))
)

/** How long asking a Custom AI waits, and how long its background job is held, from the server configuration. */
export const AskSettingsLive = Layer.effect(
  AskSettings,
  Effect.map(ServerConfig, (config) => ({ budgetMs: config.aiAskBudgetMs, leaseMs: config.aiLeaseMs }))
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
    ServedCoreLive.pipe(
      Layer.provideMerge(storageLayer(database)),
      Layer.provideMerge(ChatModelLive),
      Layer.provideMerge(PageFetcherLive),
      Layer.provideMerge(DocumentTextLive),
      Layer.provideMerge(AuthSettingsLive),
      Layer.provideMerge(AskSettingsLive)
    )
  )
)
