/**
 * svc inside another process: `makeSvc` builds what `svc serve` runs (the core on a database, every face, the same
 * workers) as one web handler, from one typed options object. The environment is not read: what `svc serve` takes
 * from `SVC_*` variables comes in as `settings`, with the same defaults and checks.
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import { HttpSenderLive } from "@svc/adapters/http-sender"
import { ToolFacesLive } from "@svc/adapters/http"
import type { DatabaseConfig } from "@svc/adapters/sql"
import {
  createStoreClient,
  createToolClient,
  type StoreClient,
  type StoreClientOptions,
  type ToolClient,
  type ToolClientOptions
} from "@svc/client"
import { Cause, ConfigProvider, Effect, Exit, Layer, ManagedRuntime } from "effect"
import { parsePublicUrl, routedPath } from "./base-path.js"
import { ServerConfig } from "./config.js"
import { makeSvcAdmin, type SvcAdmin } from "./embed-admin.js"
import { faceSettingsLayer } from "./face-settings.js"
import { appLayerOn } from "./runtime.js"
import { SVC_WORKERS, type SvcWorker, type SvcWorkers, workersLayer, workersOf } from "./workers.js"

/**
 * What `svc serve` reads from its environment, as one typed object (README, configuration). Each field left out
 * takes the server's default.
 */
export interface SvcSettings {
  /** Base64 of 32 random bytes sealing webhook secrets (`SVC_SECRET_KEY`); unset: a key kept in the database. */
  readonly secretKey?: string
  /** API key ids exempt from the tool-call rate limit (`SVC_RATE_LIMIT_EXEMPT_KEYS`). */
  readonly rateLimitExemptKeyIds?: ReadonlyArray<string>
  /** Browser origins allowed to call `/mcp` (`SVC_ALLOWED_ORIGINS`). */
  readonly allowedOrigins?: ReadonlyArray<string>
  /** Development only: webhook receivers and fetched pages on loopback over plain http (`SVC_WEBHOOKS_ALLOW_LOOPBACK`). */
  readonly allowLoopback?: boolean
  /** Where instant hooks and the ask step's callbacks may point (`SVC_INSTANT_HOOK_HOSTS`). */
  readonly instantHookHosts?: ReadonlyArray<string>
  /** Recorded sales per store (`SVC_STORE_SALES_PER_MINUTE`, `SVC_STORE_DAILY_SALE_CAP`). */
  readonly storeSaleLimits?: { readonly perMinute?: number; readonly perDay?: number }
  /** Webhook sends in flight in this process (`SVC_WEBHOOK_CONCURRENCY`) and per webhook (`SVC_WEBHOOK_PER_WEBHOOK`). */
  readonly webhookConcurrency?: number
  readonly webhookPerWebhook?: number
  /** How long a claimed delivery is held after a crash (`SVC_WEBHOOK_LEASE_MS`). */
  readonly webhookLeaseMs?: number
  /** The idle webhook workers' poll interval (`SVC_WEBHOOK_POLL_MS`). */
  readonly webhookPollMs?: number
  /** Time between the instant hooks' push rounds (`SVC_INSTANT_HOOK_INTERVAL_MS`). */
  readonly instantHookIntervalMs?: number
  /** How long svc_ask_custom_ai waits for the model (`SVC_AI_ASK_BUDGET_MS`) and holds a running answer (`SVC_AI_LEASE_MS`). */
  readonly aiAskBudgetMs?: number
  readonly aiLeaseMs?: number
  /** The language model (`SVC_AI_*`); none by default (answers quote the knowledge). */
  readonly ai?: {
    readonly provider: "openai" | "anthropic" | "openai-compatible"
    readonly apiKey?: string
    readonly baseUrl?: string
    readonly model: string
    readonly maxModel?: string
    readonly embeddingModel?: string
    readonly timeoutMs?: number
  }
  /** The SMTP server mail goes out through (`SMTP_URL`) and its From (`SMTP_FROM`); unset: mail waits in the outbox. */
  readonly smtpUrl?: string
  readonly smtpFrom?: string
  /**
   * The research sources (docs/research-sources.md): the Bluesky AppView (`SVC_RESEARCH_BLUESKY_APPVIEW`, the public
   * one by default, `"off"` leaves Bluesky out), the YouTube key, the Meta Ad Library token and a research provider.
   */
  readonly research?: {
    readonly blueskyAppView?: string
    readonly youtubeApiKey?: string
    readonly metaAdsToken?: string
    readonly providerUrl?: string
    readonly providerKey?: string
    readonly providerPlatforms?: ReadonlyArray<string>
  }
  /** How often auto-DM rules read each account's replies (`SVC_AUTO_DM_POLL_MS`) and the metrics' first-day interval. */
  readonly autoDmPollMs?: number
  readonly analyticsFirstDayEveryMs?: number
  /** The GraphQL face's limits and switches (`SVC_GRAPHQL_*`). */
  readonly graphql?: {
    readonly maxDepth?: number
    readonly maxCost?: number
    readonly maxAliases?: number
    readonly maxTokens?: number
    readonly maxBatch?: number
    readonly introspection?: boolean
    readonly graphiql?: boolean
    readonly pollIntervalMs?: number
  }
}

/** What `makeSvc` takes. */
export interface SvcOptions {
  /** The database: `Sql.DatabaseConfig.Postgres({ url })`, or `Sql.DatabaseConfig.Pglite({ dataDir })` (in memory without one). */
  readonly database: DatabaseConfig
  /**
   * Where callers reach svc, with the prefix it is mounted under, e.g. `https://app.example.com/svc`. It is in OAuth
   * metadata, links in mail and pages, and OpenAPI `servers`; the handler answers the paths under its prefix.
   */
  readonly publicUrl: string
  /** Workers to switch off (or on) from what `svc serve` runs; see `SVC_WORKERS`. */
  readonly workers?: Partial<SvcWorkers>
  readonly settings?: SvcSettings
}

/**
 * svc, built: its handler, the typed clients and a `fetch` that call it in process, the workers it runs, admin work,
 * and its end.
 */
export interface Svc {
  /**
   * Answers every svc route under the public URL's prefix, and OAuth discovery at the host's root with the prefix
   * after the well-known name (`/.well-known/oauth-authorization-server/svc`); 404 elsewhere. Mount it on the prefix
   * and on `/.well-known/`.
   */
  readonly handler: (request: Request) => Promise<Response>
  /**
   * Whether a request path (with its query, as Node's `request.url` has it) is svc's: under the prefix, or OAuth
   * discovery at the root for it. For routers that hand svc what it serves and keep the rest.
   */
  readonly serves: (path: string) => boolean
  /** `fetch` for the typed client with no socket: `createToolClient({ baseUrl: svc.publicUrl, token, fetch: svc.fetch })`. */
  readonly fetch: typeof fetch
  /** The public URL, without a trailing slash. */
  readonly publicUrl: string
  /** The prefix the handler answers under (`/svc`), or `""` at the root. */
  readonly basePath: string
  /** The workers running in this process. */
  readonly workers: ReadonlyArray<SvcWorker>
  /** What the `svc` command line does for an operator, in process. */
  readonly admin: SvcAdmin
  /** The typed clients (`@svc/client`) over the handler, in process: no socket, the same answers as over HTTP. */
  readonly client: SvcClients
  /** Stops taking requests, stops the workers, then closes the database. Safe to call twice. */
  readonly dispose: () => Promise<void>
}

/** Options of an in-process client: those of `@svc/client`'s, less where svc is and the key, which are given. */
type InProcess<Options> = Omit<Options, "baseUrl" | "token" | "fetch">

/** `@svc/client`'s clients, made for one key or OAuth token and calling the handler in process. */
export interface SvcClients {
  /** The tools client: one method per tool (`svc.client.tools(token).svc_create_note({ markdown })`). */
  readonly tools: (token: string, options?: InProcess<ToolClientOptions>) => ToolClient
  /** The store API client (`svc.client.store(token).products.list()`). */
  readonly store: (token: string, options?: InProcess<StoreClientOptions>) => StoreClient
}

const text = (value: string | number | boolean | ReadonlyArray<string> | undefined): string | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value.join(",") : String(value)

/** The settings under the names `svc serve` reads them by, for the same defaults and checks. */
const settingsByName = (options: SvcOptions): Map<string, string> => {
  const s = options.settings ?? {}
  const entries: ReadonlyArray<readonly [string, string | number | boolean | ReadonlyArray<string> | undefined]> = [
    ["PUBLIC_URL", options.publicUrl],
    ["AUTH_URL", options.publicUrl],
    ["SVC_BOOTSTRAP", false],
    ["SVC_SECRET_KEY", s.secretKey],
    ["SVC_RATE_LIMIT_EXEMPT_KEYS", s.rateLimitExemptKeyIds],
    ["SVC_ALLOWED_ORIGINS", s.allowedOrigins],
    ["SVC_WEBHOOKS_ALLOW_LOOPBACK", s.allowLoopback],
    ["SVC_INSTANT_HOOK_HOSTS", s.instantHookHosts],
    ["SVC_STORE_SALES_PER_MINUTE", s.storeSaleLimits?.perMinute],
    ["SVC_STORE_DAILY_SALE_CAP", s.storeSaleLimits?.perDay],
    ["SVC_WEBHOOK_CONCURRENCY", s.webhookConcurrency],
    ["SVC_WEBHOOK_PER_WEBHOOK", s.webhookPerWebhook],
    ["SVC_WEBHOOK_LEASE_MS", s.webhookLeaseMs],
    ["SVC_WEBHOOK_POLL_MS", s.webhookPollMs],
    ["SVC_INSTANT_HOOK_INTERVAL_MS", s.instantHookIntervalMs],
    ["SVC_AI_ASK_BUDGET_MS", s.aiAskBudgetMs],
    ["SVC_AI_LEASE_MS", s.aiLeaseMs],
    ["SVC_AI_PROVIDER", s.ai?.provider],
    ["SVC_AI_API_KEY", s.ai?.apiKey],
    ["SVC_AI_BASE_URL", s.ai?.baseUrl],
    ["SVC_AI_MODEL", s.ai?.model],
    ["SVC_AI_MAX_MODEL", s.ai?.maxModel],
    ["SVC_AI_EMBEDDING_MODEL", s.ai?.embeddingModel],
    ["SVC_AI_TIMEOUT_MS", s.ai?.timeoutMs],
    ["SMTP_URL", s.smtpUrl],
    ["SMTP_FROM", s.smtpFrom],
    ["SVC_RESEARCH_BLUESKY_APPVIEW", s.research?.blueskyAppView],
    ["SVC_YOUTUBE_API_KEY", s.research?.youtubeApiKey],
    ["SVC_META_ADS_TOKEN", s.research?.metaAdsToken],
    ["SVC_RESEARCH_PROVIDER_URL", s.research?.providerUrl],
    ["SVC_RESEARCH_PROVIDER_KEY", s.research?.providerKey],
    ["SVC_RESEARCH_PROVIDER_PLATFORMS", s.research?.providerPlatforms],
    ["SVC_AUTO_DM_POLL_MS", s.autoDmPollMs],
    ["SVC_ANALYTICS_FIRST_DAY_EVERY_MS", s.analyticsFirstDayEveryMs],
    ["SVC_GRAPHQL_MAX_DEPTH", s.graphql?.maxDepth],
    ["SVC_GRAPHQL_MAX_COST", s.graphql?.maxCost],
    ["SVC_GRAPHQL_MAX_ALIASES", s.graphql?.maxAliases],
    ["SVC_GRAPHQL_MAX_TOKENS", s.graphql?.maxTokens],
    ["SVC_GRAPHQL_MAX_BATCH", s.graphql?.maxBatch],
    ["SVC_GRAPHQL_INTROSPECTION", s.graphql?.introspection],
    ["SVC_GRAPHQL_GRAPHIQL", s.graphql?.graphiql],
    ["SVC_GRAPHQL_POLL_INTERVAL_MS", s.graphql?.pollIntervalMs]
  ]
  const named = new Map<string, string>()
  for (const [name, value] of entries) {
    const written = text(value)
    if (written !== undefined) named.set(name, written)
  }
  return named
}

/**
 * Builds svc: migrates the database, starts the workers, and answers a handler for the host's router. Throws when an
 * option is wrong (a setting out of range, a database that cannot be opened), with the reason.
 */
export const makeSvc = async (options: SvcOptions): Promise<Svc> => {
  const { base, basePath } = parsePublicUrl(options.publicUrl)
  const provider = ConfigProvider.fromMap(settingsByName({ ...options, publicUrl: base }))
  const config = await Effect.runPromise(Effect.withConfigProvider(ServerConfig, provider))
  const on: SvcWorkers = { ...workersOf(config), ...options.workers }

  // The sender is built on the app, as in `svc serve`, so it takes the app's `OutboundSettings` (loopback, hook hosts).
  const app = HttpSenderLive.pipe(Layer.provideMerge(appLayerOn(options.database)))
  const faceSettings = faceSettingsLayer(config, { publicUrl: base, authUrl: base })
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(faceSettings, workersLayer(config, on).pipe(Layer.provideMerge(app))).pipe(
      Layer.provide(Layer.setConfigProvider(provider))
    )
  )
  // A database that cannot be opened fails here: what was opened before it is closed again, then the reason thrown.
  const { context } = await runtime.runtime().catch(async (error: unknown) => {
    await runtime.dispose()
    throw error
  })
  const web = HttpLayerRouter.toWebHandler(ToolFacesLive.pipe(Layer.provide(Layer.succeedContext(context))), {
    disableLogger: true
  })

  // A request under the prefix goes in with it taken off (base-path.ts); the host's other paths are not svc's.
  const handler = (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    const path = routedPath(basePath, url.pathname)
    if (path === undefined) return Promise.resolve(Response.json({ ok: false, error: "not_found" }, { status: 404 }))
    if (path === url.pathname) return web.handler(request)
    url.pathname = path
    return web.handler(new Request(url, request))
  }

  // A refusal rejects with the domain's own error (`Conflict`, `NotFound`, `InvalidInput`, with its message).
  const run = <A, E>(effect: Effect.Effect<A, E, ManagedRuntime.ManagedRuntime.Context<typeof runtime>>) =>
    runtime.runPromiseExit(effect).then((exit) => {
      if (Exit.isSuccess(exit)) return exit.value
      throw Cause.squash(exit.cause)
    })

  const admin = makeSvcAdmin(run)

  const inProcess: typeof fetch = (input, init) => handler(new Request(input, init))
  const client: SvcClients = {
    tools: (token, options) => createToolClient({ ...options, baseUrl: base, token, fetch: inProcess }),
    store: (token, options) => createStoreClient({ ...options, baseUrl: base, token, fetch: inProcess })
  }

  let disposed: Promise<void> | undefined
  return {
    handler,
    serves: (path) => routedPath(basePath, path.split("?")[0] ?? "") !== undefined,
    fetch: inProcess,
    publicUrl: base,
    basePath,
    workers: (Object.keys(SVC_WORKERS) as Array<SvcWorker>).filter((worker) => on[worker]),
    admin,
    client,
    dispose: () => {
      disposed ??= web.dispose().then(() => runtime.dispose())
      return disposed
    }
  }
}
