/**
 * What the embedding examples share: the database, svc under `/svc` as `makeSvc` builds it (Express, Fastify, Hono),
 * the core's layers and svc's routes for the Effect examples, a first API key, and a clean stop.
 *
 * The database is PostgreSQL when `DATABASE_URL` is set, else PGlite in memory (its data ends with the process).
 */
// Each package's index holds one namespace per area (`Accounts`, `Auth`, `Sql`, `Http`, …); the same areas are
// subpaths too (`import { ApiKeys } from "@svc/core/auth"`), which load only that area.
import { Ai, Http, HttpSender, Sql } from "@svc/adapters"
import { Accounts, Auth, Boards, CoreLive, everyToolset, Scheduling, Store, toolServerLive, Webhooks } from "@svc/core"
import { makeSvc, Storage, type Svc } from "@svc/server"
import { type Context, Effect, Layer } from "effect"

/** The database of the examples: PostgreSQL when `DATABASE_URL` is set, else PGlite in memory. */
export const database: Sql.DatabaseConfig = process.env.DATABASE_URL
  ? Sql.DatabaseConfig.Postgres({ url: process.env.DATABASE_URL })
  : Sql.DatabaseConfig.Pglite({ dataDir: undefined })

/** Which database {@link database} is, for the start-up line (never the URL: it may hold a password). */
export const databaseName = Sql.DatabaseConfig.$is("Postgres")(database) ? "PostgreSQL" : "PGlite in memory"

/** The port to listen on: `PORT`, or 3000 (`PORT=0` picks a free one). */
export const port = Number(process.env.PORT ?? 3000)

/** Where callers reach the app: `PUBLIC_URL`, or this machine on {@link port}. */
export const publicUrl = process.env.PUBLIC_URL ?? `http://127.0.0.1:${port}`

/**
 * Every core service and every tool (the svc server's set; `toolServerLive` takes fewer toolsets too), over all
 * storage ports on {@link database} with its migrations applied, plus the SSRF-safe sender webhook deliveries
 * and test sends go out through.
 */
export const SvcCoreLive = toolServerLive(everyToolset).pipe(
  Layer.provideMerge(CoreLive),
  Layer.provideMerge(Scheduling.SchedulingPortsLive(publicUrl)),
  // The store tools' links (a discount code's checkout_url) on the address the store API's links are on too.
  Layer.provideMerge(
    Layer.succeed(Store.StorePages, { ...Store.StorePages.defaultValue(), publicBase: publicUrl.replace(/\/+$/, "") })
  ),
  Layer.provideMerge(Storage.storageLayer(database)),
  Layer.provideMerge(Auth.AuthSettings.Default),
  Layer.provideMerge(HttpSender.HttpSenderLive),
  // Development only: SVC_WEBHOOKS_ALLOW_LOOPBACK=true lets webhooks deliver to a receiver on this machine over plain
  // http (examples/webhook-receiver.ts). Left out, `OutboundSettings` refuses loopback, as a server should.
  Layer.provideMerge(
    Layer.succeed(HttpSender.OutboundSettings, {
      allowLoopback: process.env.SVC_WEBHOOKS_ALLOW_LOOPBACK === "true",
      instantHookHosts: Webhooks.DEFAULT_INSTANT_HOOK_HOSTS
    })
  ),
  Layer.provideMerge(Ai.CustomAiPortsNoModel)
)

/** Everything {@link SvcCoreLive} provides. */
export type SvcCore = Layer.Layer.Success<typeof SvcCoreLive>

/**
 * The background work `svc serve` runs next to its routes: webhook deliveries, instant-hook pushes, and the hourly
 * purges of the trash, old deliveries and expired OAuth grants. Without it, webhooks are queued but never sent.
 * On a PostgreSQL that several instances share, each may run it: deliveries are claimed, never sent twice.
 */
export const SvcWorkersLive = Layer.mergeAll(
  Webhooks.WebhookWorkerLive(),
  Webhooks.InstantHookWorkerLive(),
  Boards.TrashPurgeLive(),
  Webhooks.WebhookPurgeLive(),
  Auth.OAuthPurgeLive()
)

/**
 * Opens an owner account and answers a new API key of it (`svc_pat_…`, shown once). The address is new on every
 * run, so the examples also start on a PostgreSQL database that an earlier run left accounts in.
 */
export const createOwnerKey = Effect.gen(function* () {
  const { account } = yield* (yield* Accounts.Accounts).create({
    email: `owner-${Date.now()}@example.com`,
    password: "a long password",
    plan: "starter"
  })
  const { token } = yield* (yield* Auth.ApiKeys).create(account.id, { name: "embedded" })
  return token
})

/**
 * svc's routes (MCP at `/mcp`, REST tools at `/v1/tools`, the store API at `/store-app/v1`, OAuth, `/health`) over a
 * core that is already built. `publicUrl` is where callers reach them: it goes into OAuth metadata and OpenAPI.
 */
export const svcRoutes = (publicUrl: string, core: Context.Context<SvcCore>) =>
  Http.ToolFacesLive.pipe(
    Layer.provide(Http.PublicUrl.layer(publicUrl)),
    Layer.provide(Http.HttpFaceSettings.Default),
    Layer.provide(Layer.succeedContext(core))
  )

/** Where the framework examples mount svc: its routes answer under this prefix of the app. */
export const SVC_PREFIX = "/svc"

/**
 * svc under {@link SVC_PREFIX} of the app at `appUrl`, as `makeSvc` builds it (every face, the same workers as
 * `svc serve`), with an owner account and its first API key made in process.
 */
export const startSvc = async (appUrl: string): Promise<{ readonly svc: Svc; readonly apiKey: string }> => {
  // SVC_WEBHOOKS_ALLOW_LOOPBACK=true lets webhooks deliver to a receiver on this machine over plain http, for local
  // development (examples/webhook-receiver.ts); makeSvc itself reads no environment.
  const svc = await makeSvc({
    database,
    publicUrl: `${appUrl}${SVC_PREFIX}`,
    settings: { allowLoopback: process.env.SVC_WEBHOOKS_ALLOW_LOOPBACK === "true" }
  })
  // New on every run, so the examples also start on a PostgreSQL database an earlier run left accounts in.
  const email = `owner-${Date.now()}@example.com`
  await svc.admin.createAccount({ email, password: "a long password", plan: "starter" })
  const { token } = await svc.admin.createApiKey({ email, name: "embedded" })
  return { svc, apiKey: token }
}

/**
 * The lines a newcomer (and the examples' test) reads: where the app listens, where svc is (the app itself, or
 * `svc` under a prefix of it), and with which key to call.
 */
export const announce = (url: string, apiKey: string, svcUrl = url): void => {
  console.log(`listening on ${url} (${databaseName})`)
  console.log(`svc on ${svcUrl}`)
  console.log(`key ${apiKey}`)
}

/**
 * Runs `stop` once, on the first SIGTERM or SIGINT, and lets the process end by itself once everything is closed
 * (exit code 0; 1 if stopping failed).
 */
export const stopOnSignal = (stop: () => Promise<void>): void => {
  const once = () => {
    process.off("SIGTERM", once)
    process.off("SIGINT", once)
    stop().then(
      () => console.log("stopped"),
      (error: unknown) => {
        console.error("stopping failed", error)
        process.exitCode = 1
      }
    )
  }
  process.on("SIGTERM", once)
  process.on("SIGINT", once)
}
