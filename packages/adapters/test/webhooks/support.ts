/**
 * Webhook management tests: the store API over the whole core on the test database (as web handlers,
 * with the loopback test switch on and off), SQL access for fixtures, and real receivers on 127.0.0.1.
 */
import { createHmac } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import { SqlClient } from "@effect/sql"
import type { Access } from "@svc/core/auth"
import { CustomAis } from "@svc/core/custom-ai"
import { Context, Effect, Layer } from "effect"
import { PublicUrl } from "../../src/http/config.js"
import { OutboundSettings, type OutboundSettingsShape } from "../../src/http-sender/config.js"
import { StoreApiRoutes } from "../../src/http/store-api/index.js"
import { signUpSeller, testCoreLayer } from "../support/core.js"

type Core = Layer.Layer.Success<ReturnType<typeof testCoreLayer>>

/** One answer of the store API, its body parsed. */
export interface Answer {
  readonly status: number
  readonly body: Record<string, unknown>
}

/** Sends one request to `/store-app/v1<path>`. */
export type Call = (token: string | undefined, method: string, path: string, body?: unknown) => Promise<Answer>

export interface WebhookHarness {
  /** The store API with loopback allowed (`SVC_WEBHOOKS_ALLOW_LOOPBACK=true`: receivers on 127.0.0.1 over http). */
  readonly call: Call
  /** The same API with the switch off, as in production. */
  readonly callStrict: Call
  /** Runs an effect with the core (services, ports, `SqlClient`). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, Core>) => Effect.Effect<A, E>
  /** A new seller (Starter unless told) with a key, a store and a live one-time product. */
  readonly seller: (options?: { readonly plan?: "free" | "starter"; readonly access?: Access }) => Effect.Effect<{
    readonly token: string
    readonly workspaceId: string
    readonly handle: string
    readonly productId: () => Effect.Effect<string>
  }>
}

/** The public address the store API's handler is served under, for its links and challenges. */
export const STORE_PUBLIC_BASE = "http://store.test"

/** The store API over `core` as a web handler, with `outbound` over the default outbound settings, closed with the scope. */
export const storeApiHandler = (core: Context.Context<Core>, outbound: Partial<OutboundSettingsShape> = {}) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() =>
        HttpLayerRouter.toWebHandler(
          StoreApiRoutes.pipe(
            Layer.provide(Layer.succeedContext(core)),
            // The store API names its public address in OAuth challenges and checkout links.
            Layer.provide(PublicUrl.layer(STORE_PUBLIC_BASE)),
            Layer.provide(Layer.succeed(OutboundSettings, { ...OutboundSettings.defaultValue(), ...outbound }))
          ),
          { disableLogger: true }
        )
      ),
      (web) => Effect.promise(() => web.dispose())
    ),
    (web) => (request: Request) => web.handler(request)
  )

/** A `Call` over a store API handler: one request with a bearer token (a string body is sent as it is). */
export const callerOf =
  (handler: (request: Request) => Promise<Response>): Call =>
  async (token, method, path, body) => {
    const headers: Record<string, string> = { "content-type": "application/json" }
    if (token !== undefined) headers.authorization = `Bearer ${token}`
    const response = await handler(
      new Request(`http://store.test/store-app/v1${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
      })
    )
    const text = await response.text()
    return { status: response.status, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) }
  }

/** `callerOf` over `storeApiHandler`. */
export const storeApiCaller = (core: Context.Context<Core>, outbound: Partial<OutboundSettingsShape>) =>
  Effect.map(storeApiHandler(core, outbound), callerOf)

export class WebhookTest extends Context.Tag("test/WebhookTest")<WebhookTest, WebhookHarness>() {
  static readonly layer = Layer.scoped(
    WebhookTest,
    Effect.gen(function* () {
      const core = yield* Layer.build(testCoreLayer())
      const call = yield* storeApiCaller(core, { allowLoopback: true })
      const callStrict = yield* storeApiCaller(core, { allowLoopback: false })
      const run: WebhookHarness["run"] = (effect) => Effect.provide(effect, core)

      const seller: WebhookHarness["seller"] = (options = {}) =>
        Effect.gen(function* () {
          const user = yield* signUpSeller(options)
          const workspaceId = user.workspace.id
          const productId = () =>
            Effect.gen(function* () {
              const customAi = yield* (yield* CustomAis).create(workspaceId, { name: "Coach" })
              const created = yield* Effect.promise(() =>
                call(user.token, "POST", "/products", { custom_ai_id: customAi.id })
              )
              const id = (created.body.product as { readonly id: string }).id
              const published = yield* Effect.promise(() => call(user.token, "POST", `/products/${id}/publish`))
              if (published.status !== 200) return yield* Effect.dieMessage(JSON.stringify(published.body))
              return id
            }).pipe(Effect.provide(core), Effect.orDie)
          return { token: user.token, workspaceId, handle: user.store.handle, productId }
        }).pipe(Effect.provide(core), Effect.orDie)

      return { call, callStrict, run, seller }
    })
  )
}

/** Runs a promise-returning call inside an effect. */
export const request = (call: Call, ...args: Parameters<Call>) => Effect.promise(() => call(...args))

/** Runs SQL against the test database. */
export const query = <A extends object>(
  harness: WebhookHarness,
  statement: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>
) => harness.run(Effect.flatMap(SqlClient.SqlClient, statement).pipe(Effect.orDie))

/** One request a receiver got: the raw body and lower-case headers. */
export interface Received {
  readonly body: string
  readonly headers: Readonly<Record<string, string>>
}

/** A real HTTP receiver on 127.0.0.1 that records each request and answers as told. */
export const receiver = (
  answer: (got: Received) => { readonly status: number; readonly body?: string } = () => ({ status: 200 })
) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ readonly url: string; readonly got: Array<Received>; readonly server: http.Server }>(
          (resolve) => {
            const got: Array<Received> = []
            const server = http.createServer((req, res) => {
              const chunks: Array<Buffer> = []
              req.on("data", (chunk: Buffer) => chunks.push(chunk))
              req.on("end", () => {
                const headers: Record<string, string> = {}
                for (const [name, value] of Object.entries(req.headers)) {
                  if (typeof value === "string") headers[name] = value
                }
                const one = { body: Buffer.concat(chunks).toString("utf8"), headers }
                got.push(one)
                const reply = answer(one)
                res.writeHead(reply.status, { "content-type": "text/plain" })
                res.end(reply.body ?? "ok")
              })
            })
            server.listen(0, "127.0.0.1", () => {
              const { port } = server.address() as AddressInfo
              resolve({ url: `http://127.0.0.1:${port}/hooks`, got, server })
            })
          }
        )
    ),
    ({ server }) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections()
            server.close(() => resolve())
          })
      )
  )

/** Hex HMAC-SHA256 of `<timestamp>.<raw body>`, as a receiver computes it. */
export const expectedSignature = (secret: string, got: Received) =>
  createHmac("sha256", secret).update(`${got.headers["x-svc-timestamp"]}.${got.body}`).digest("hex")

/** The hex digests of an `X-Svc-Signature` header, in order. */
export const signaturesOf = (got: Received) =>
  (got.headers["x-svc-signature"] ?? "").split(",").map((part) => part.trim().replace(/^sha256=/, ""))

/** A webhook as the API answers it. */
export interface WebhookJson {
  readonly id: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly description: string | null
  readonly enabled: boolean
  readonly disabled_reason: string | null
  readonly failing_since: string | null
  readonly created_at: string
  readonly updated_at: string
  readonly secret?: string
}

/** The `webhook` of an answer. */
export const webhookOf = (answer: Answer) => answer.body.webhook as WebhookJson

/** Creates a webhook and answers it with its secret; dies on anything but 201. */
export const createWebhook = (call: Call, token: string, body: Record<string, unknown>) =>
  Effect.flatMap(request(call, token, "POST", "/webhooks", body), (answer) =>
    answer.status === 201
      ? Effect.succeed(webhookOf(answer) as WebhookJson & { readonly secret: string })
      : Effect.dieMessage(`create answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  )
