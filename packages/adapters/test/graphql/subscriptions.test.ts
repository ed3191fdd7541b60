/**
 * `Subscription.events` over SSE (graphql-sse against the GraphQL face): a sale recorded through the store API
 * reaches a subscriber, a subscription resumes after an event id, and callers only see what they may.
 */
import { createServer } from "node:http"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { createClient, type ExecutionResult } from "graphql-sse"
import { PublicUrl } from "../../src/http/config.js"
import { GraphqlRoutes, GraphqlSettings } from "../../src/http/graphql/index.js"
import type { testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { WebhookTest } from "../webhooks/support.js"

const EVENT_FIELDS = "id type createdAt workspaceId data"

type Core = Layer.Layer.Success<ReturnType<typeof testCoreLayer>>
/**
 * The GraphQL face over the harness's core, served by a Node HTTP server on a free port of 127.0.0.1 and polling the
 * log every 100 ms; closed with the scope. Answers its base URL.
 */
const servedGraphql = Effect.gen(function* () {
  const { run } = yield* WebhookTest
  const core = yield* run(Effect.context<Core>())
  const served = yield* Layer.build(
    HttpLayerRouter.serve(GraphqlRoutes, { disableLogger: true, disableListenLog: true }).pipe(
      Layer.provide(
        Layer.mergeAll(
          Layer.succeedContext(core),
          PublicUrl.layer("http://127.0.0.1"),
          GraphqlSettings.layer({ pollIntervalMs: 100 })
        )
      ),
      Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
    )
  )
  const address = Context.get(served, HttpServer.HttpServer).address
  if (address._tag !== "TcpAddress") return yield* Effect.dieMessage("the test server listens on TCP")
  return `http://127.0.0.1:${address.port}`
})

interface Received {
  readonly id: string
  readonly type: string
  readonly createdAt: string
  readonly workspaceId: string
  readonly data: Record<string, unknown>
}

type Result = ExecutionResult<{ events: Received }, unknown>

/** Subscribes with `token`; answers the iterator of results (the request goes out with the first `next`). */
const subscribe = (url: string, token: string, query: string) =>
  createClient({
    url: `${url}/graphql`,
    headers: { authorization: `Bearer ${token}` },
    retryAttempts: 0
  })
    .iterate<{ events: Received }>({ query })
    [Symbol.asyncIterator]()

/** The first result of a subscription, or the error it ends with. */
const firstOf = (results: AsyncIterator<Result>) =>
  Effect.promise(() =>
    results.next().then(
      (result) => result.value as Result,
      (error: unknown) => ({ errors: [error] }) as unknown as Result
    )
  )

/** Ends a subscription as a client going away does. */
const stop = (results: AsyncIterator<Result>) =>
  Effect.promise(async () => {
    await results.return?.()
  })

const codeOf = (result: Result) =>
  (result.errors?.[0] as { extensions?: { code?: string } } | undefined)?.extensions?.code

const pause = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))

layer(WebhookTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `GraphQL subscriptions on ${engineName}`,
  (it) => {
    describe("events", () => {
      it.scoped("an SSE subscription receives a sale event recorded through the store API, and resumes after it", () =>
        Effect.gen(function* () {
          const harness = yield* WebhookTest
          const graphql = yield* servedGraphql
          const seller = yield* harness.seller()
          const productId = yield* seller.productId()
          const sell = (n: number) =>
            Effect.promise(() =>
              harness.call(seller.token, "POST", "/sales", {
                event: "sale",
                product: productId,
                email: `buyer${n}@example.com`,
                order_id: `ORDER-${n}`
              })
            )

          const live = subscribe(
            graphql,
            seller.token,
            `subscription { events(types: ["purchase.created"]) { ${EVENT_FIELDS} } }`
          )
          const first = firstOf(live)
          const pending = yield* Effect.fork(first)
          // The feed starts from the moment it subscribes: give the request time to get there.
          yield* pause(500)
          expect((yield* sell(1)).body).toMatchObject({ ok: true })
          const received = (yield* pending.await).pipe((exit) => (exit._tag === "Success" ? exit.value : undefined))
          expect(received?.errors).toBeUndefined()
          const event = received?.data?.events
          expect(event).toMatchObject({ type: "purchase.created", workspaceId: seller.workspaceId })
          expect(event?.id).toMatch(/^evt_/)
          expect(Number.isNaN(Date.parse(event?.createdAt ?? ""))).toBe(false)
          expect(event?.data).toMatchObject({ buyer_email: "buyer1@example.com" })
          yield* stop(live)

          expect((yield* sell(2)).body).toMatchObject({ ok: true })
          const resumed = subscribe(
            graphql,
            seller.token,
            `subscription { events(types: ["purchase.created"], after: "${event?.id}") { ${EVENT_FIELDS} } }`
          )
          const next = yield* firstOf(resumed)
          expect(next.data?.events.data).toMatchObject({ buyer_email: "buyer2@example.com" })
          yield* stop(resumed)

          const unknown = subscribe(graphql, seller.token, `subscription { events(after: "evt_unknown") { id } }`)
          expect(codeOf(yield* firstOf(unknown))).toBe("BAD_USER_INPUT")
        })
      )

      it.scoped("a key without store access gets no store events, and no one follows another account's workspace", () =>
        Effect.gen(function* () {
          const harness = yield* WebhookTest
          const graphql = yield* servedGraphql
          const noStore = yield* harness.seller({ access: { kind: "custom", parts: { workspace: "read" } } })
          const refused = subscribe(
            graphql,
            noStore.token,
            `subscription { events(types: ["purchase.created"]) { id } }`
          )
          expect(codeOf(yield* firstOf(refused))).toBe("FORBIDDEN")

          const other = yield* harness.seller()
          const foreign = subscribe(
            graphql,
            other.token,
            `subscription { events(workspaceId: "${noStore.workspaceId}") { id } }`
          )
          expect(codeOf(yield* firstOf(foreign))).toBe("NOT_FOUND")
        })
      )
    })
  }
)
