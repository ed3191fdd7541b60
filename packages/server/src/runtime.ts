import { DocumentTextLive } from "@svc/adapters/ai"
import { OutboundSettings, PageFetcherLive } from "@svc/adapters/http-sender"
import { StripeProcessorLive } from "@svc/adapters/payments"
import { type DatabaseConfig, DeliveryPolling, databaseConfig } from "@svc/adapters/sql"
import { ServerSecretKey } from "@svc/adapters/system"
import { CoreLive, everyToolset, toolServerLive } from "@svc/core"
import { AuthSettings } from "@svc/core/auth"
import { AskSettings } from "@svc/core/custom-ai"
import { ProcessorPlatform, StorePages, StoreSaleLimits } from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { ChatModelLive } from "./ai-config.js"
import { publicBase, ServerConfig } from "./config.js"
import { mediaStoreOf } from "./media-config.js"
import { schedulingPortsAt } from "./publishing.js"
import { ResearchSourcesLive } from "./research.js"
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

/**
 * The core's and the adapters' settings from the server configuration (each has a safe default for embedders that
 * provide none): loopback and hook hosts for outgoing requests, the server key, the sale limits, the store's pages (the
 * settings page its messages send its owner to, the public address of its checkout links), the queue's polling.
 */
export const ServiceSettingsLive = Layer.unwrapEffect(
  Effect.map(ServerConfig, (config) =>
    Layer.mergeAll(
      Layer.succeed(OutboundSettings, {
        allowLoopback: config.allowLoopback,
        instantHookHosts: config.instantHookHosts
      }),
      Layer.succeed(ServerSecretKey, { configured: config.secretKey }),
      Layer.succeed(StoreSaleLimits, config.storeSaleLimits),
      // The settings page is served by the authorization server's pages, as the sign-in page is; the checkout by
      // the public pages, on the address the store API's links use too.
      Layer.succeed(StorePages, {
        settingsPage: `${(config.authUrl._tag === "Some" ? config.authUrl.value.href : publicBase(config)).replace(/\/+$/, "")}/settings`,
        publicBase: publicBase(config)
      }),
      Layer.succeed(DeliveryPolling, { pollMs: Option.getOrUndefined(config.webhookPollMs) }),
      Layer.succeed(ProcessorPlatform, { connect: Option.getOrNull(config.stripeConnect) })
    )
  )
)

/** The stores' live card processor: Stripe, at `SVC_STRIPE_API_URL` when set. */
export const CardProcessorLive = Layer.unwrapEffect(
  Effect.map(ServerConfig, (config) =>
    StripeProcessorLive(
      Option.match(config.stripeApiUrl, { onNone: () => ({}), onSome: (url) => ({ apiBase: url.origin }) })
    )
  )
)

/** The publishers and public addresses of scheduling, at the server's public address. */
export const SchedulingPortsLive = Layer.unwrapEffect(
  Effect.map(ServerConfig, (config) => schedulingPortsAt(publicBase(config), config.allowLoopback))
)

/** The tools `svc` serves: every area's (a server that serves fewer lists its own toolsets here). */
export const servedToolsets = everyToolset

/** Every core service and the tool server, over the ports the caller provides. */
export const ServedCoreLive = toolServerLive(servedToolsets).pipe(
  Layer.provideMerge(CoreLive),
  Layer.provideMerge(SchedulingPortsLive),
  Layer.provideMerge(ResearchSourcesLive)
)

/**
 * The core with its ports, on the database the environment names (`DATABASE_URL` or `DATA_DIR`), and the settings
 * the server configuration gives them. The outgoing HTTP sender is added where the server is served (`serve.ts`):
 * the CLI never sends.
 */
export const AppLive = Layer.unwrapEffect(Effect.map(databaseConfig, (database) => appLayerOn(database)))

/** The core with its ports on `database`, and the settings the server configuration gives them. */
export const appLayerOn = (database: DatabaseConfig) =>
  ServedCoreLive.pipe(
    Layer.provideMerge(SchedulingPortsLive),
    Layer.provideMerge(
      Layer.unwrapEffect(
        Effect.map(ServerConfig, (config) =>
          storageLayer(database, mediaStoreOf(config.media, publicBase(config), database))
        )
      )
    ),
    Layer.provideMerge(ChatModelLive),
    Layer.provideMerge(CardProcessorLive),
    Layer.provideMerge(PageFetcherLive),
    Layer.provideMerge(DocumentTextLive),
    Layer.provideMerge(AuthSettingsLive),
    Layer.provideMerge(AskSettingsLive),
    Layer.provideMerge(ServiceSettingsLive)
  )
