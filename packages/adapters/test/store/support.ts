/** The store API over the whole core on the test database, as a web handler, plus seller set-up helpers. */
import { SqlClient } from "@effect/sql"
import type { Plan } from "@svc/core/accounts"
import { type Access, ApiKeys } from "@svc/core/auth"
import { CustomAis } from "@svc/core/custom-ai"
import { StorePages, StoreSaleLimits, StoreSetup } from "@svc/core/store"
import { ToolServer } from "@svc/core/tools"
import { Context, Effect, Layer, Schema } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { callerOf, STORE_PUBLIC_BASE, storeApiHandler } from "../webhooks/support.js"

/** A store test harness: `call` sends one request to `/store-app/v1<path>`. */
export interface StoreHarness {
  readonly call: (
    token: string | undefined,
    method: string,
    path: string,
    body?: unknown
  ) => Promise<{ readonly status: number; readonly body: Record<string, unknown> }>
  readonly raw: (request: Request) => Promise<Response>
  /** Runs seller set-up the store API has no route for (cohorts, tags, more keys) on the harness's core. */
  readonly setUp: <A, E>(
    effect: Effect.Effect<A, E, Layer.Layer.Success<ReturnType<typeof testCoreLayer>>>
  ) => Effect.Effect<A, E>
  /**
   * A published product of `seller` made through the store API: for `customAiId`, else a new Custom AI, with
   * `fields` (`POST /products` and `/publish` must answer 201 and 200). Answers its id.
   */
  readonly liveProduct: (
    seller: { readonly token: string; readonly newCustomAi: () => Effect.Effect<string> },
    options?: { readonly customAiId?: string | undefined; readonly fields?: Record<string, unknown> }
  ) => Effect.Effect<string>
  /** Calls a tool through the real ToolServer as the key `token` gives, and answers the tool's answer body. */
  readonly tool: (token: string, name: string, args: unknown) => Effect.Effect<Record<string, unknown>>
  /** The workspace's event log, oldest first. */
  readonly events: (
    workspaceId: string
  ) => Effect.Effect<ReadonlyArray<{ readonly type: string; readonly data: Record<string, unknown> }>>
  /** The messages the outbox `Mailer` recorded for a workspace, oldest first. */
  readonly outbox: (
    workspaceId: string
  ) => Effect.Effect<ReadonlyArray<{ readonly recipient: string; readonly kind: string }>>
  /** A new seller with a key, a Custom AI and store settings. */
  readonly seller: (options?: {
    readonly plan?: Plan
    readonly access?: Access
    readonly supportEmail?: string | null
    readonly cardProcessor?: "connected" | "none"
  }) => Effect.Effect<{
    token: string
    customAiId: string
    workspaceId: string
    newCustomAi: () => Effect.Effect<string>
  }>
}

export class StoreTest extends Context.Tag("test/StoreTest")<StoreTest, StoreHarness>() {
  /** The harness with other sale limits than the default 60 a minute and 5,000 a day. */
  static readonly withSaleLimits = (limits: Partial<StoreSaleLimits["Type"]>) =>
    StoreTest.layer.pipe(
      Layer.provide(Layer.succeed(StoreSaleLimits, { ...StoreSaleLimits.defaultValue(), ...limits }))
    )

  static readonly layer = Layer.scoped(
    StoreTest,
    Effect.gen(function* () {
      // The tools answer links on the address the store API is served under, as on the server.
      const core = yield* Layer.build(
        testCoreLayer().pipe(
          Layer.provide(Layer.succeed(StorePages, { ...StorePages.defaultValue(), publicBase: STORE_PUBLIC_BASE }))
        )
      )
      const raw = yield* storeApiHandler(core)
      const call = callerOf(raw)
      const seller: StoreHarness["seller"] = (options = {}) =>
        Effect.gen(function* () {
          const user = yield* signUp({
            plan: options.plan ?? "starter",
            ...(options.access ? { access: options.access } : {})
          })
          const workspaceId = user.workspace.id
          const setup = yield* StoreSetup
          yield* setup.set(workspaceId, {
            supportEmail: options.supportEmail === undefined ? "help@example.com" : options.supportEmail,
            cardProcessor: options.cardProcessor ?? "none"
          })
          const newCustomAi = () =>
            Effect.flatMap(CustomAis, (s) => s.create(workspaceId, { name: "Coach" })).pipe(
              Effect.map((c) => c.id),
              Effect.provide(core),
              Effect.orDie
            )
          return { token: user.token, customAiId: yield* newCustomAi(), workspaceId, newCustomAi }
        }).pipe(Effect.provide(core), Effect.orDie)
      const outbox: StoreHarness["outbox"] = (workspaceId) =>
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ recipient: string; kind: string }>`SELECT recipient, kind FROM mail_outbox
                     WHERE workspace_id = ${workspaceId} ORDER BY created_at, id`
        ).pipe(Effect.provide(core), Effect.orDie)
      const setUp: StoreHarness["setUp"] = (effect) => Effect.provide(effect, core)
      const liveProduct: StoreHarness["liveProduct"] = (owner, options = {}) =>
        Effect.gen(function* () {
          const customAiId = options.customAiId ?? (yield* owner.newCustomAi())
          const created = yield* Effect.promise(() =>
            call(owner.token, "POST", "/products", { custom_ai_id: customAiId, ...options.fields })
          )
          if (created.status !== 201) return yield* Effect.dieMessage(`POST /products: ${JSON.stringify(created.body)}`)
          const id = (created.body.product as { id: string }).id
          const published = yield* Effect.promise(() => call(owner.token, "POST", `/products/${id}/publish`))
          if (published.status !== 200) return yield* Effect.dieMessage(`publish: ${JSON.stringify(published.body)}`)
          return id
        })
      const tool: StoreHarness["tool"] = (token, name, args) =>
        Effect.gen(function* () {
          const principal = yield* (yield* ApiKeys).authenticate(token)
          return (yield* (yield* ToolServer).call(principal, name, args)) as Record<string, unknown>
        }).pipe(Effect.provide(core), Effect.orDie)
      const events: StoreHarness["events"] = (workspaceId) =>
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ type: string; data: unknown }>`SELECT type, data FROM events
                     WHERE workspace_id = ${workspaceId} ORDER BY seq`
        ).pipe(
          Effect.map((rows) =>
            rows.map((row) => ({
              type: row.type,
              data: (typeof row.data === "string" ? JSON.parse(row.data) : row.data) as Record<string, unknown>
            }))
          ),
          Effect.provide(core),
          Effect.orDie
        )
      return { call, raw, seller, outbox, setUp, tool, events, liveProduct }
    })
  )
}

/** Exactly the schema's fields: one the schema does not name, or one it names and the row lacks, fails. */
export const exactly = <A, I>(schema: Schema.Schema<A, I>, row: unknown) =>
  Schema.decodeUnknownSync(schema, { onExcessProperty: "error" })(row)

/** Sends store API requests as the key `token` gives, as an Effect. */
export const caller = (t: StoreHarness, token: string) => (method: string, path: string, body?: unknown) =>
  Effect.promise(() => t.call(token, method, path, body))
