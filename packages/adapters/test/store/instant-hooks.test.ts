import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { CustomAis } from "@svc/core/custom-ai"
import { EventLog } from "@svc/core/events"
import { Transactor } from "@svc/core/shared"
import { StoreSetup } from "@svc/core/store"
import {
  DEFAULT_INSTANT_HOOK_INTERVAL_MS,
  IDS_PER_PUSH,
  MAX_INSTANT_HOOKS_PER_STORE,
  pushRound,
  runInstantHookWorker,
  SETTLE_MS
} from "@svc/core/webhooks"
import { Context, Effect, Fiber, Layer, TestClock } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { type Call, type Received, receiver, request, storeApiCaller } from "../webhooks/support.js"

type Core = Layer.Layer.Success<ReturnType<typeof testCoreLayer>>

const ZAPIER = "https://hooks.zapier.com/hooks/standard/123/abc"

class HooksTest extends Context.Tag("test/HooksTest")<
  HooksTest,
  {
    /** The store API with loopback targets allowed and 127.0.0.1 among the hook hosts (receivers over http). */
    readonly call: Call
    /** The same API configured as in production: https only, the default hook domain. */
    readonly callStrict: Call
    readonly run: <A, E>(effect: Effect.Effect<A, E, Core>) => Effect.Effect<A, E>
    readonly seller: (options?: { readonly plan?: "free" | "starter"; readonly access?: "read" }) => Effect.Effect<{
      readonly token: string
      readonly workspaceId: string
      /** A live product: paid one-time by default, or a paid monthly membership. */
      readonly product: (billing?: "one-time" | "monthly") => Effect.Effect<string>
    }>
  }
>() {
  static readonly layer = Layer.scoped(
    HooksTest,
    Effect.gen(function* () {
      const core = yield* Layer.build(testCoreLayer())
      const call = yield* storeApiCaller(core, {
        allowLoopback: true,
        instantHookHosts: ["hooks.zapier.com", "127.0.0.1"]
      })
      const callStrict = yield* storeApiCaller(core, { allowLoopback: false })
      const run = <A, E>(effect: Effect.Effect<A, E, Core>) => Effect.provide(effect, core)
      const seller = (options: { readonly plan?: "free" | "starter"; readonly access?: "read" } = {}) =>
        Effect.gen(function* () {
          const user = yield* signUp({
            plan: options.plan ?? "starter",
            ...(options.access ? { access: { kind: "custom" as const, parts: { store: options.access } } } : {})
          })
          const workspaceId = user.workspace.id
          yield* (yield* StoreSetup).set(workspaceId, { supportEmail: "help@example.com", cardProcessor: "connected" })
          const product = (billing: "one-time" | "monthly" = "one-time") =>
            Effect.gen(function* () {
              const customAi = yield* (yield* CustomAis).create(workspaceId, { name: "Coach" })
              const created = yield* request(call, user.token, "POST", "/products", {
                custom_ai_id: customAi.id,
                price_cents: 2900,
                billing
              })
              const id = (created.body.product as { readonly id: string }).id
              const published = yield* request(call, user.token, "POST", `/products/${id}/publish`)
              if (published.status !== 200) return yield* Effect.dieMessage(JSON.stringify(published.body))
              return id
            }).pipe(Effect.provide(core), Effect.orDie)
          return { token: user.token, workspaceId, product }
        }).pipe(Effect.provide(core), Effect.orDie)
      return { call, callStrict, run, seller }
    })
  )
}

/** What a push carried. */
const pushOf = (got: Received | undefined) => JSON.parse(got?.body ?? "null") as { event: string; ids: Array<string> }

/** Moves the test clock (never back) to where the events recorded so far can be pushed (past their settling time). */
const clockAtNow = Effect.flatMap(TestClock.currentTimeMillis, (now) =>
  TestClock.setTime(Math.max(now, Date.now() + SETTLE_MS + 1_000))
)

/** One push round on the test clock. */
const round = Effect.flatMap(HooksTest, (t) => t.run(pushRound({ intervalMs: DEFAULT_INSTANT_HOOK_INTERVAL_MS })))

/** The next round's time: one interval on. */
const nextRound = TestClock.adjust(DEFAULT_INSTANT_HOOK_INTERVAL_MS)

const subscribe = (call: Call, token: string, event: string, target: string) =>
  Effect.flatMap(request(call, token, "POST", "/hooks", { event, target_url: target }), (answer) =>
    answer.status === 201
      ? Effect.succeed(answer.body.id as string)
      : Effect.dieMessage(`subscribe answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  )

const sale = (
  call: Call,
  token: string,
  product: string,
  orderId: string,
  event = "sale",
  email = `${orderId}@example.com`
) =>
  Effect.flatMap(request(call, token, "POST", "/sales", { event, product, email, order_id: orderId }), (answer) =>
    answer.body.ok === true ? Effect.void : Effect.dieMessage(JSON.stringify(answer.body))
  )

/** The ids a feed lists, newest first. */
const feedIds = (call: Call, token: string, path: string, key: string) =>
  Effect.map(request(call, token, "GET", path), (answer) =>
    (answer.body[key] as Array<{ readonly id: string }>).map((row) => row.id)
  )

const hookExists = (id: string) =>
  Effect.flatMap(HooksTest, (t) =>
    t.run(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT id FROM instant_hooks WHERE id = ${id}`).pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.orDie
      )
    )
  )

layer(HooksTest.layer, { timeout: "120 seconds" })(`instant hooks (${engineName})`, (it) => {
  it.scoped("subscribe answers { ok, id }; the same event and target answer the same hook; DELETE unsubscribes", () =>
    Effect.gen(function* () {
      const { callStrict: call, seller } = yield* HooksTest
      const s = yield* seller()
      const first = yield* request(call, s.token, "POST", "/hooks", { event: "new_sale", target_url: ZAPIER })
      expect(first.status).toBe(201)
      expect(first.body).toEqual({ ok: true, id: expect.stringMatching(/^hook_/) })
      const id = first.body.id as string
      // A retried subscribe (the same target, written differently) must not make a second hook.
      const again = yield* subscribe(
        call,
        s.token,
        "new_sale",
        "HTTPS://Hooks.Zapier.com:443/hooks/x/../standard/123/abc#f"
      )
      expect(again).toBe(id)
      const other = yield* subscribe(call, s.token, "new_refund", ZAPIER)
      expect(other).not.toBe(id)
      const sub = yield* subscribe(call, s.token, "new_customer", "https://eu.hooks.zapier.com/h")
      expect(sub).toMatch(/^hook_/)

      expect(yield* request(call, s.token, "DELETE", `/hooks/${id}`)).toEqual({
        status: 200,
        body: { ok: true, id, deleted: true }
      })
      const gone = yield* request(call, s.token, "DELETE", `/hooks/${id}`)
      expect(gone.status).toBe(404)
      expect(gone.body).toMatchObject({ ok: false, error: "not_found" })

      const document = yield* request(call, undefined, "GET", "/openapi.json")
      const paths = document.body.paths as Record<string, Record<string, unknown>>
      expect(Object.keys(paths["/store-app/v1/hooks"] ?? {})).toEqual(["post"])
      expect(Object.keys(paths["/store-app/v1/hooks/{id}"] ?? {})).toEqual(["delete"])
    })
  )

  it.scoped("an unknown event is refused with 422 naming the events", () =>
    Effect.gen(function* () {
      const { callStrict: call, seller } = yield* HooksTest
      const s = yield* seller()
      const answer = yield* request(call, s.token, "POST", "/hooks", { event: "new_order", target_url: ZAPIER })
      expect(answer.status).toBe(422)
      expect(answer.body).toMatchObject({ ok: false, error: "invalid_field" })
      const message = answer.body.message as string
      for (const name of ["new_sale", "new_customer", "new_membership_payment", "membership_cancelled", "new_refund"]) {
        expect(message).toContain(name)
      }
      expect((answer.body.errors as Array<{ path: string }>)[0]?.path).toBe("event")
      // Missing and extra fields are the body's schema's 422s.
      expect((yield* request(call, s.token, "POST", "/hooks", { event: "new_sale" })).status).toBe(422)
      expect(
        (yield* request(call, s.token, "POST", "/hooks", { event: "new_sale", target_url: ZAPIER, x: 1 })).status
      ).toBe(422)
    })
  )

  it.scoped("the target must be https on the hook domain, with no credentials and no private address", () =>
    Effect.gen(function* () {
      const { callStrict: call, seller } = yield* HooksTest
      const s = yield* seller()
      const refused = (target: string, text: string) =>
        Effect.gen(function* () {
          const answer = yield* request(call, s.token, "POST", "/hooks", { event: "new_sale", target_url: target })
          expect(answer.status, target).toBe(422)
          expect(answer.body.message as string, target).toContain(text)
          expect((answer.body.errors as Array<{ path: string }>)[0]?.path).toBe("target_url")
        })
      yield* refused("http://hooks.zapier.com/hooks/1", "https://")
      yield* refused("https://example.com/hooks/1", "hook domain")
      yield* refused("https://hooks.zapier.com.evil.example/hooks/1", "hook domain")
      yield* refused("https://evilhooks.zapier.com/hooks/1", "hook domain")
      yield* refused("https://user:pw@hooks.zapier.com/hooks/1", "user name or password")
      yield* refused("https://127.0.0.1/hooks/1", "IP address")
      yield* refused("https://[::1]/hooks/1", "IP address")
      yield* refused("https://localhost/hooks/1", "local")
      yield* refused("not a url", "not a URL")
      yield* refused(`https://hooks.zapier.com/${"a".repeat(2100)}`, "at most")
      // The test switch admits loopback receivers only where the operator listed them as hook hosts.
      yield* refused("http://127.0.0.1:9/hooks", "https://")
    })
  )

  it.scoped("another store's hook is not found; a read-only key and the Free plan cannot subscribe", () =>
    Effect.gen(function* () {
      const { callStrict: call, seller } = yield* HooksTest
      const owner = yield* seller()
      const stranger = yield* seller()
      const id = yield* subscribe(call, owner.token, "new_sale", ZAPIER)
      const answer = yield* request(call, stranger.token, "DELETE", `/hooks/${id}`)
      expect(answer.status).toBe(404)
      expect(yield* hookExists(id)).toBe(true)

      const reader = yield* seller({ access: "read" })
      expect(
        (yield* request(call, reader.token, "POST", "/hooks", { event: "new_sale", target_url: ZAPIER })).status
      ).toBe(403)
      const free = yield* seller({ plan: "free" })
      expect(
        (yield* request(call, free.token, "POST", "/hooks", { event: "new_sale", target_url: ZAPIER })).status
      ).toBe(402)
      expect((yield* request(call, undefined, "DELETE", `/hooks/${id}`)).status).toBe(401)
    })
  )

  it.scoped(`a store has at most ${MAX_INSTANT_HOOKS_PER_STORE} hooks`, () =>
    Effect.gen(function* () {
      const { callStrict: call, seller } = yield* HooksTest
      const s = yield* seller()
      const ids = yield* Effect.forEach(
        Array.from({ length: MAX_INSTANT_HOOKS_PER_STORE }, (_, i) => i),
        (i) => subscribe(call, s.token, "new_sale", `${ZAPIER}/${i}`),
        { concurrency: 5 }
      )
      expect(new Set(ids).size).toBe(MAX_INSTANT_HOOKS_PER_STORE)
      const over = yield* request(call, s.token, "POST", "/hooks", { event: "new_sale", target_url: `${ZAPIER}/x` })
      expect(over.status).toBe(422)
      expect(over.body.message).toContain(`at most ${MAX_INSTANT_HOOKS_PER_STORE}`)
      // Re-subscribing an existing one still answers it; unsubscribing makes room.
      expect(yield* subscribe(call, s.token, "new_sale", `${ZAPIER}/0`)).toBe(ids[0])
      yield* request(call, s.token, "DELETE", `/hooks/${ids[0]}`)
      expect(yield* subscribe(call, s.token, "new_sale", `${ZAPIER}/x`)).toMatch(/^hook_/)
    })
  )

  it.scoped("sales before subscribing never fire; a later sale is pushed as { event, ids } on the next round", () =>
    Effect.gen(function* () {
      const { call, seller } = yield* HooksTest
      const s = yield* seller()
      const product = yield* s.product()
      const target = yield* receiver()
      yield* sale(call, s.token, product, "before-1")
      yield* sale(call, s.token, product, "before-2")
      const id = yield* subscribe(call, s.token, "new_sale", target.url)
      yield* sale(call, s.token, product, "after-1")
      yield* sale(call, s.token, product, "after-2")
      const feed = yield* feedIds(call, s.token, "/sales/recent", "sales")
      expect(feed).toHaveLength(4)

      yield* clockAtNow
      yield* round
      expect(target.got).toHaveLength(1)
      const got = target.got[0] as Received
      expect(got.headers["content-type"]).toBe("application/json")
      // Oldest first; the ids the feed lists for those rows.
      expect(pushOf(got)).toEqual({ event: "new_sale", ids: [feed[1], feed[0]] })

      // Not due again until an interval has passed, and then nothing is new.
      yield* round
      yield* nextRound
      yield* round
      expect(target.got).toHaveLength(1)

      yield* sale(call, s.token, product, "after-3")
      yield* clockAtNow
      yield* nextRound
      yield* round
      expect(target.got).toHaveLength(2)
      expect(pushOf(target.got[1])).toEqual({
        event: "new_sale",
        ids: [(yield* feedIds(call, s.token, "/sales/recent", "sales"))[0]]
      })
      yield* request(call, s.token, "DELETE", `/hooks/${id}`)
    })
  )

  it.scoped("a failed push sends the same ids again next round, until one goes through", () =>
    Effect.gen(function* () {
      const { call, seller } = yield* HooksTest
      const s = yield* seller()
      const product = yield* s.product()
      let status = 500
      const target = yield* receiver(() => ({ status }))
      const id = yield* subscribe(call, s.token, "new_sale", target.url)
      yield* sale(call, s.token, product, "f-1")
      yield* clockAtNow
      yield* round
      status = 302
      yield* nextRound
      yield* round
      status = 200
      yield* nextRound
      yield* round
      yield* nextRound
      yield* round
      expect(target.got).toHaveLength(3)
      const [first, second, third] = target.got.map(pushOf)
      expect(first?.ids).toHaveLength(1)
      expect(second).toEqual(first)
      expect(third).toEqual(first)
      expect(yield* hookExists(id)).toBe(true)
      yield* request(call, s.token, "DELETE", `/hooks/${id}`)
    })
  )

  it.scoped("a target answering 410 deletes the hook", () =>
    Effect.gen(function* () {
      const { call, seller } = yield* HooksTest
      const s = yield* seller()
      const product = yield* s.product()
      const target = yield* receiver(() => ({ status: 410 }))
      const id = yield* subscribe(call, s.token, "new_sale", target.url)
      yield* sale(call, s.token, product, "g-1")
      yield* clockAtNow
      yield* round
      expect(target.got).toHaveLength(1)
      expect(yield* hookExists(id)).toBe(false)
      expect((yield* request(call, s.token, "DELETE", `/hooks/${id}`)).status).toBe(404)
    })
  )

  it.scoped("a hook whose pushes fail for three days is deleted", () =>
    Effect.gen(function* () {
      const { call, seller } = yield* HooksTest
      const s = yield* seller()
      const product = yield* s.product()
      const target = yield* receiver(() => ({ status: 503 }))
      const id = yield* subscribe(call, s.token, "new_sale", target.url)
      yield* sale(call, s.token, product, "d-1")
      yield* clockAtNow
      yield* round
      yield* TestClock.adjust("71 hours")
      yield* round
      expect(yield* hookExists(id)).toBe(true)
      yield* TestClock.adjust("1 hour")
      yield* round
      expect(target.got).toHaveLength(3)
      expect(yield* hookExists(id)).toBe(false)
    })
  )

  it.scoped("every event pushes the ids its feed lists", () =>
    Effect.gen(function* () {
      const { call, seller } = yield* HooksTest
      const s = yield* seller()
      const membership = yield* s.product("monthly")
      const target = yield* receiver()
      const events = ["new_sale", "new_customer", "new_membership_payment", "membership_cancelled", "new_refund"]
      const hooks = yield* Effect.forEach(events, (event) => subscribe(call, s.token, event, `${target.url}/${event}`))
      const member = "member@example.com"
      yield* sale(call, s.token, membership, "m-1", "sale", member)
      yield* sale(call, s.token, membership, "m-2", "renewal", member)
      yield* sale(call, s.token, membership, "m-3", "cancel", member)
      yield* request(call, s.token, "POST", "/customers", {
        product: membership,
        email: "gift@example.com",
        send_email: false
      })
      yield* sale(call, s.token, membership, "m-1", "refund", member)
      yield* clockAtNow
      yield* round
      const pushed = Object.fromEntries(target.got.map(pushOf).map((push) => [push.event, push.ids]))
      const oldestFirst = (ids: ReadonlyArray<string>) => [...ids].reverse()
      expect(pushed).toEqual({
        new_sale: oldestFirst(yield* feedIds(call, s.token, "/sales/recent", "sales")),
        new_customer: oldestFirst(yield* feedIds(call, s.token, "/customers/recent", "customers")),
        new_membership_payment: oldestFirst(yield* feedIds(call, s.token, "/memberships/payments", "payments")),
        membership_cancelled: oldestFirst(yield* feedIds(call, s.token, "/memberships/changes", "changes")),
        new_refund: oldestFirst(yield* feedIds(call, s.token, "/refunds/recent", "refunds"))
      })
      expect(pushed.new_membership_payment).toHaveLength(2)
      expect(pushed.new_customer).toHaveLength(2)
      for (const hook of hooks) yield* request(call, s.token, "DELETE", `/hooks/${hook}`)
    })
  )

  it.scoped("the worker pushes every interval of the clock", () =>
    Effect.gen(function* () {
      const { call, run, seller } = yield* HooksTest
      const s = yield* seller()
      const product = yield* s.product()
      const target = yield* receiver()
      const id = yield* subscribe(call, s.token, "new_sale", target.url)
      yield* clockAtNow
      const worker = yield* Effect.fork(run(runInstantHookWorker({ intervalMs: DEFAULT_INSTANT_HOOK_INTERVAL_MS })))
      const until = (count: number) =>
        Effect.promise(async () => {
          for (let i = 0; i < 500 && target.got.length < count; i++) await new Promise((r) => setTimeout(r, 10))
        })
      yield* sale(call, s.token, product, "w-1")
      yield* TestClock.adjust(DEFAULT_INSTANT_HOOK_INTERVAL_MS + SETTLE_MS)
      yield* until(1)
      expect(target.got).toHaveLength(1)
      yield* sale(call, s.token, product, "w-2")
      yield* clockAtNow
      yield* TestClock.adjust(DEFAULT_INSTANT_HOOK_INTERVAL_MS)
      yield* until(2)
      expect(target.got.map(pushOf).map((push) => push.ids.length)).toEqual([1, 1])
      yield* Fiber.interrupt(worker)
      yield* request(call, s.token, "DELETE", `/hooks/${id}`)
    })
  )

  it.scoped("new_paid_question pushes live questions only, by the ids GET /paid-questions/recent lists", () =>
    Effect.gen(function* () {
      const { call, run, seller } = yield* HooksTest
      const s = yield* seller()
      const target = yield* receiver()
      const id = yield* subscribe(call, s.token, "new_paid_question", target.url)
      const start = Date.now() + 1
      // As the store writes them: one bought through the test processor (left out), one live.
      const question = (eventId: string, i: number, test: boolean) => ({
        id: eventId,
        workspaceId: s.workspaceId,
        type: "paid_question.created",
        createdAt: new Date(start + i),
        data: {
          question_id: `pq_${eventId}`,
          product_id: "prod_ask",
          product_title: "Ask me",
          buyer_email: `q${i}@example.com`,
          buyer_name: null,
          sale_id: `purchase:${eventId}`,
          text: "Which one?",
          amount: 25,
          amount_cents: 2500,
          currency: "usd",
          test,
          answer_due_at: new Date(start + 86_400_000).toISOString(),
          answer_url: `https://svc.example.com/q/pq_${eventId}?k=secret`,
          created_at: new Date(start + i).toISOString()
        }
      })
      yield* run(
        Effect.gen(function* () {
          const log = yield* EventLog
          yield* (yield* Transactor).withTransaction(
            Effect.all([log.append(question("evt_pq_test", 0, true)), log.append(question("evt_pq_live", 1, false))])
          )
        })
      )
      expect(yield* feedIds(call, s.token, "/paid-questions/recent", "questions")).toEqual(["evt_pq_live"])
      yield* TestClock.setTime(start + 2 + SETTLE_MS + 1_000)
      yield* round
      expect(target.got.map(pushOf)).toEqual([{ event: "new_paid_question", ids: ["evt_pq_live"] }])
      yield* request(call, s.token, "DELETE", `/hooks/${id}`)
    })
  )

  it.scoped("new_affiliate_sale pushes the ids GET /affiliates/sales lists", () =>
    Effect.gen(function* () {
      const { call, run, seller } = yield* HooksTest
      const s = yield* seller()
      const target = yield* receiver()
      const id = yield* subscribe(call, s.token, "new_affiliate_sale", target.url)
      const start = Date.now() + 1
      const affiliateSale = (eventId: string, i: number) => ({
        id: eventId,
        workspaceId: s.workspaceId,
        type: "affiliate_sale.created",
        createdAt: new Date(start + i),
        data: {
          id: `purchase:${eventId}`,
          product_id: "prod_course",
          product_title: "Course",
          buyer_email: `a${i}@example.com`,
          buyer_name: null,
          amount: 50,
          amount_cents: 5000,
          currency: "usd",
          billing: "one-time",
          source: "svc_checkout",
          order_id: `order_${eventId}`,
          discount_code: null,
          utm_source: null,
          utm_medium: null,
          utm_campaign: null,
          utm_content: null,
          utm_term: null,
          fbclid: null,
          referrer: null,
          status: "paid",
          test: false,
          created_at: new Date(start + i).toISOString(),
          commission_id: `com_${eventId}`,
          affiliate_id: "aff_ann",
          affiliate_email: "ann@example.com",
          payment: "first",
          commission_cents: 1000,
          commission: 10
        }
      })
      yield* run(
        Effect.gen(function* () {
          const log = yield* EventLog
          yield* (yield* Transactor).withTransaction(
            Effect.all([log.append(affiliateSale("evt_as_1", 0)), log.append(affiliateSale("evt_as_2", 1))])
          )
        })
      )
      expect(yield* feedIds(call, s.token, "/affiliates/sales", "sales")).toEqual(["evt_as_2", "evt_as_1"])
      yield* TestClock.setTime(start + 2 + SETTLE_MS + 1_000)
      yield* round
      expect(target.got.map(pushOf)).toEqual([{ event: "new_affiliate_sale", ids: ["evt_as_1", "evt_as_2"] }])
      yield* request(call, s.token, "DELETE", `/hooks/${id}`)
    })
  )

  it.scoped(`a backlog goes out ${IDS_PER_PUSH} ids a push, oldest first, in one round`, () =>
    Effect.gen(function* () {
      const { call, run, seller } = yield* HooksTest
      const s = yield* seller()
      const target = yield* receiver()
      const id = yield* subscribe(call, s.token, "new_customer", target.url)
      const start = Date.now() + 1
      const written = Array.from({ length: IDS_PER_PUSH + 30 }, (_, i) => `evt_backlog_${String(i).padStart(4, "0")}`)
      // Written straight to the event log (as the store does), a millisecond apart, so the order is known.
      yield* run(
        Effect.gen(function* () {
          const log = yield* EventLog
          yield* (yield* Transactor).withTransaction(
            Effect.forEach(written, (eventId, i) =>
              log.append({
                id: eventId,
                workspaceId: s.workspaceId,
                type: "customer.created",
                createdAt: new Date(start + i),
                data: {
                  product_id: "prod_backlog",
                  product_title: "Backlog",
                  email: `c${i}@example.com`,
                  name: null,
                  how: "added"
                }
              })
            )
          )
        })
      )
      yield* TestClock.setTime(start + written.length + SETTLE_MS + 1_000)
      yield* round
      expect(target.got.map(pushOf)).toEqual([
        { event: "new_customer", ids: written.slice(0, IDS_PER_PUSH) },
        { event: "new_customer", ids: written.slice(IDS_PER_PUSH) }
      ])
      yield* request(call, s.token, "DELETE", `/hooks/${id}`)
    })
  )

  it.scoped("rounds running at once push a hook once", () =>
    Effect.gen(function* () {
      const { call, seller } = yield* HooksTest
      const s = yield* seller()
      const product = yield* s.product()
      const target = yield* receiver()
      const id = yield* subscribe(call, s.token, "new_sale", target.url)
      yield* sale(call, s.token, product, "c-1")
      yield* clockAtNow
      yield* Effect.all([round, round, round], { concurrency: "unbounded" })
      expect(target.got).toHaveLength(1)
      yield* request(call, s.token, "DELETE", `/hooks/${id}`)
    })
  )
})
