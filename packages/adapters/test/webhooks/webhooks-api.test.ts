import { expect, layer } from "@effect/vitest"
import { MAX_WEBHOOKS_PER_WORKSPACE, WEBHOOK_EVENT_GROUPS, WEBHOOK_EVENT_TYPES } from "@svc/core/webhooks"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { createWebhook, query, request, WebhookTest, webhookOf } from "./support.js"

const url = "https://hooks.example.com/svc"

layer(WebhookTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `webhook management (${engineName})`,
  (it) => {
    it.effect("lists every event type in the spec's groups, flagging the ones emitted today", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const answer = yield* request(t.call, s.token, "GET", "/webhook-events")
        expect(answer.status).toBe(200)
        const groups = answer.body.groups as ReadonlyArray<{
          group: string
          events: ReadonlyArray<{ type: string; emitted: boolean }>
        }>
        expect(groups.map((g) => g.group)).toEqual(WEBHOOK_EVENT_GROUPS.map((g) => g.group))
        const all = groups.flatMap((g) => g.events)
        expect(all.map((e) => e.type)).toEqual([...WEBHOOK_EVENT_TYPES])
        expect(all.filter((e) => e.emitted).map((e) => e.type)).toEqual([
          "purchase.created",
          "purchase.refunded",
          "purchase.membership_ended",
          "membership.renewed",
          "membership.cancelled",
          "customer.created",
          "affiliate_sale.created",
          "lead.created",
          "contact.tagged",
          "form.completed",
          "lesson.completed",
          "lesson_question.created",
          "cohort_signup.created",
          "review.created",
          "testimonial.created",
          "paid_question.created",
          "post.published",
          "post.failed"
        ])
      })
    )

    it.effect("creates a webhook with its secret shown once; lists and reads it without the secret", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const created = yield* request(t.call, s.token, "POST", "/webhooks", {
          url,
          events: ["purchase.created", "customer.created", "purchase.created"],
          description: "  CRM sync  "
        })
        expect(created.status).toBe(201)
        const webhook = webhookOf(created)
        expect(webhook).toMatchObject({
          url,
          events: ["purchase.created", "customer.created"],
          description: "CRM sync",
          enabled: true,
          disabled_reason: null,
          failing_since: null
        })
        expect(webhook.id).toMatch(/^wh_/)
        expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
        expect(webhook.created_at).toBe(webhook.updated_at)

        const listed = yield* request(t.call, s.token, "GET", "/webhooks")
        expect(listed.status).toBe(200)
        const { secret: _secret, ...withoutSecret } = webhook
        expect(listed.body.webhooks).toEqual([withoutSecret])
        const one = yield* request(t.call, s.token, "GET", `/webhooks/${webhook.id}`)
        expect(one.body).toEqual({ ok: true, webhook: withoutSecret })
        expect(JSON.stringify(one.body)).not.toContain("whsec_")

        // Stored sealed, never in the clear.
        const rows = yield* query(
          t,
          (sql) => sql<{ secret_sealed: string }>`SELECT secret_sealed FROM webhooks
                                                                       WHERE id = ${webhook.id}`
        )
        expect(rows[0]?.secret_sealed).not.toContain((webhook.secret ?? "").slice(6))

        const all = yield* createWebhook(t.call, s.token, { url, events: ["purchase.refunded", "*"] })
        expect(all.events).toEqual(["*"])
        expect(all.description).toBeNull()
        const newestFirst = yield* request(t.call, s.token, "GET", "/webhooks")
        expect((newestFirst.body.webhooks as ReadonlyArray<{ id: string }>).map((w) => w.id)).toEqual([
          all.id,
          webhook.id
        ])
      })
    )

    it.effect("refuses unknown event types (naming them), an empty list and unknown fields with 422", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const unknown = yield* request(t.call, s.token, "POST", "/webhooks", {
          url,
          events: ["purchase.created", "purchase.exploded"]
        })
        expect(unknown.status).toBe(422)
        expect(unknown.body).toMatchObject({ ok: false, error: "invalid_field" })
        expect(unknown.body.message).toContain('"purchase.exploded"')
        expect(unknown.body.errors).toEqual([
          { path: "events.1", message: expect.stringContaining("purchase.exploded") }
        ])
        const empty = yield* request(t.call, s.token, "POST", "/webhooks", { url, events: [] })
        expect(empty.status).toBe(422)
        expect(empty.body.message).toContain("at least one event type")
        const extra = yield* request(t.call, s.token, "POST", "/webhooks", { url, events: ["*"], secret: "mine" })
        expect(extra.status).toBe(422)
        const missing = yield* request(t.call, s.token, "POST", "/webhooks", { events: ["*"] })
        expect(missing.status).toBe(422)
        const notJson = yield* request(t.call, s.token, "POST", "/webhooks", "{oops")
        expect(notJson.status).toBe(400)
        expect((yield* request(t.call, s.token, "GET", "/webhooks")).body.webhooks).toEqual([])
      })
    )

    it.effect("refuses receiver addresses that are not public https with a clear 422", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const refused = {
          "http://hooks.example.com/x": "must start with https://",
          "https://user:pw@hooks.example.com/x": "user name or password",
          "https://10.0.0.8/x": "host name, not an IP address",
          "https://[::ffff:169.254.169.254]/x": "host name, not an IP address",
          "https://8.8.8.8/x": "host name, not an IP address",
          "https://printer.local/x": "public host name",
          "https://metadata.internal/x": "public host name",
          "https://intranet/x": "public host name",
          "not a url": "not a URL"
        }
        for (const [address, reason] of Object.entries(refused)) {
          for (const call of [t.call, t.callStrict]) {
            const answer = yield* request(call, s.token, "POST", "/webhooks", { url: address, events: ["*"] })
            expect(answer.status, address).toBe(422)
            expect(answer.body.error).toBe("invalid_field")
            expect(answer.body.message, address).toContain(reason)
            // A public address's refusal says nothing of the loopback switch.
            if (call === t.callStrict) expect(answer.body.message, address).not.toContain("LOOPBACK")
            expect(answer.body.errors).toEqual([
              { path: "url", message: expect.stringContaining("url is not allowed") }
            ])
          }
        }
        const long = yield* request(t.call, s.token, "POST", "/webhooks", {
          url: `https://hooks.example.com/${"a".repeat(2048)}`,
          events: ["*"]
        })
        expect(long.status).toBe(422)
        // Loopback over plain http only with the test switch, which no request can turn on.
        for (const address of ["http://127.0.0.1:9/x", "https://localhost/x", "http://[::1]:9/x"]) {
          const strict = yield* request(t.callStrict, s.token, "POST", "/webhooks", { url: address, events: ["*"] })
          expect(strict.status, address).toBe(422)
          // The refusal names the switch a developer's server needs.
          expect(strict.body.message, address).toContain("SVC_WEBHOOKS_ALLOW_LOOPBACK=true")
          const allowed = yield* request(t.call, s.token, "POST", "/webhooks", { url: address, events: ["*"] })
          expect(allowed.status, address).toBe(201)
        }
        const patched = yield* request(
          t.callStrict,
          s.token,
          "PATCH",
          `/webhooks/${webhookOf(yield* request(t.call, s.token, "POST", "/webhooks", { url, events: ["*"] })).id}`,
          { url: "http://127.0.0.1:9/x" }
        )
        expect(patched.status).toBe(422)
      })
    )

    it.effect("stores and shows a receiver URL as the URL parser reads it: the address that is called", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const normalised = {
          // A backslash is a slash to the URL parser: this calls hooks.example.com, not 127.0.0.1.
          "https://hooks.example.com\\@127.0.0.1/h": "https://hooks.example.com/@127.0.0.1/h",
          "  HTTPS://Hooks.Example.COM:443/a/../b?x=1#frag  ": "https://hooks.example.com/b?x=1",
          "https://bücher.example/in": "https://xn--bcher-kva.example/in",
          "https://hooks.example.com": "https://hooks.example.com/"
        }
        for (const [given, called] of Object.entries(normalised)) {
          const created = yield* createWebhook(t.callStrict, s.token, { url: given, events: ["*"] })
          expect(created.url, given).toBe(called)
          const [stored] = yield* query(
            t,
            (sql) => sql<{ url: string }>`SELECT url FROM webhooks WHERE id = ${created.id}`
          )
          expect(stored?.url, given).toBe(called)
          expect(webhookOf(yield* request(t.call, s.token, "GET", `/webhooks/${created.id}`)).url).toBe(called)
          yield* request(t.call, s.token, "DELETE", `/webhooks/${created.id}`)
        }
        const hook = yield* createWebhook(t.call, s.token, { url, events: ["*"] })
        const patched = yield* request(t.call, s.token, "PATCH", `/webhooks/${hook.id}`, {
          url: "https://Hooks.Example.com\\v2#x"
        })
        expect(webhookOf(patched).url).toBe("https://hooks.example.com/v2")
        // A row stored as typed by an earlier version is shown as it is called.
        yield* query(
          t,
          (sql) => sql`UPDATE webhooks SET url = ${"https://Hooks.Example.com\\old"} WHERE id = ${hook.id}`
        )
        const listed = (yield* request(t.call, s.token, "GET", "/webhooks")).body.webhooks as ReadonlyArray<{
          id: string
          url: string
        }>
        expect(listed.find((w) => w.id === hook.id)?.url).toBe("https://hooks.example.com/old")
      })
    )

    it.effect(`holds ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks per workspace, even when creates race`, () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const answers = yield* Effect.all(
          Array.from({ length: MAX_WEBHOOKS_PER_WORKSPACE + 4 }, (_, i) =>
            request(t.call, s.token, "POST", "/webhooks", { url: `${url}/${i}`, events: ["*"] })
          ),
          { concurrency: "unbounded" }
        )
        expect(answers.filter((a) => a.status === 201)).toHaveLength(MAX_WEBHOOKS_PER_WORKSPACE)
        const refused = answers.filter((a) => a.status !== 201)
        expect(refused).toHaveLength(4)
        for (const answer of refused) {
          expect(answer.status).toBe(422)
          expect(answer.body.message).toContain(`at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks`)
        }
        const listed = yield* request(t.call, s.token, "GET", "/webhooks")
        expect(listed.body.webhooks).toHaveLength(MAX_WEBHOOKS_PER_WORKSPACE)
        // Another workspace has its own 20.
        const other = yield* t.seller()
        expect((yield* request(t.call, other.token, "POST", "/webhooks", { url, events: ["*"] })).status).toBe(201)
        // Deleting one makes room again.
        const first = (listed.body.webhooks as ReadonlyArray<{ id: string }>)[0]?.id
        expect((yield* request(t.call, s.token, "DELETE", `/webhooks/${first}`)).status).toBe(200)
        expect((yield* request(t.call, s.token, "POST", "/webhooks", { url, events: ["*"] })).status).toBe(201)
      })
    )

    it.effect(
      "PATCH changes only the fields given; off sets reason owner, on clears the reason and failing clock",
      () =>
        Effect.gen(function* () {
          const t = yield* WebhookTest
          const s = yield* t.seller()
          const webhook = yield* createWebhook(t.call, s.token, { url, events: ["*"], description: "first" })
          const path = `/webhooks/${webhook.id}`
          const renamed = webhookOf(yield* request(t.call, s.token, "PATCH", path, { url: `${url}/v2` }))
          expect(renamed).toMatchObject({ url: `${url}/v2`, events: ["*"], description: "first", enabled: true })
          expect(renamed.updated_at >= webhook.updated_at).toBe(true)
          const typed = webhookOf(yield* request(t.call, s.token, "PATCH", path, { events: ["membership.renewed"] }))
          expect(typed).toMatchObject({ url: `${url}/v2`, events: ["membership.renewed"], description: "first" })
          const cleared = webhookOf(yield* request(t.call, s.token, "PATCH", path, { description: null }))
          expect(cleared.description).toBeNull()
          expect((yield* request(t.call, s.token, "PATCH", path, { events: ["nope"] })).status).toBe(422)
          expect((yield* request(t.call, s.token, "PATCH", path, { events: [] })).status).toBe(422)
          expect((yield* request(t.call, s.token, "PATCH", path, { enabled: "yes" })).status).toBe(422)
          expect((yield* request(t.call, s.token, "PATCH", path, { secret: "x" })).status).toBe(422)

          const off = webhookOf(yield* request(t.call, s.token, "PATCH", path, { enabled: false }))
          expect(off).toMatchObject({ enabled: false, disabled_reason: "owner" })

          // As the delivery worker leaves it after 3 days of failures.
          const since = new Date(Date.now() - 4 * 86_400_000)
          yield* query(
            t,
            (sql) => sql`UPDATE webhooks SET disabled_reason = 'failing', failing_since = ${since}
                                     WHERE id = ${webhook.id}`
          )
          const stillOff = webhookOf(yield* request(t.call, s.token, "PATCH", path, { enabled: false }))
          expect(stillOff).toMatchObject({ enabled: false, disabled_reason: "failing" })
          expect(stillOff.failing_since).toBe(since.toISOString())
          const on = webhookOf(yield* request(t.call, s.token, "PATCH", path, { enabled: true }))
          expect(on).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null })

          // A PATCH that leaves it on does not reset a running failure clock.
          yield* query(t, (sql) => sql`UPDATE webhooks SET failing_since = ${since} WHERE id = ${webhook.id}`)
          const kept = webhookOf(yield* request(t.call, s.token, "PATCH", path, { enabled: true, description: "x" }))
          expect(kept.failing_since).toBe(since.toISOString())
          const unchanged = yield* request(t.call, s.token, "PATCH", path, {})
          expect(unchanged.status).toBe(200)
        })
    )

    it.effect("DELETE removes a webhook with its deliveries; a second DELETE answers 404", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const s = yield* t.seller()
        const webhook = yield* createWebhook(t.call, s.token, { url, events: ["*"] })
        const product = yield* s.productId()
        yield* request(t.call, s.token, "POST", "/sales", { event: "sale", product, email: "del@example.com" })
        const before = yield* query(t, (sql) => sql`SELECT id FROM webhook_deliveries WHERE webhook_id = ${webhook.id}`)
        expect(before.length).toBeGreaterThan(0)
        const deleted = yield* request(t.call, s.token, "DELETE", `/webhooks/${webhook.id}`)
        expect(deleted.status).toBe(200)
        expect(deleted.body).toEqual({ ok: true, id: webhook.id, deleted: true })
        const after = yield* query(t, (sql) => sql`SELECT id FROM webhook_deliveries WHERE webhook_id = ${webhook.id}`)
        expect(after).toHaveLength(0)
        expect((yield* request(t.call, s.token, "DELETE", `/webhooks/${webhook.id}`)).status).toBe(404)
        expect((yield* request(t.call, s.token, "GET", `/webhooks/${webhook.id}`)).status).toBe(404)
      })
    )

    it.effect("answers 404 for another workspace's webhook, delivery or event on every route", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const owner = yield* t.seller()
        const stranger = yield* t.seller()
        const webhook = yield* createWebhook(t.call, owner.token, { url, events: ["*"] })
        const product = yield* owner.productId()
        yield* request(t.call, owner.token, "POST", "/sales", { event: "sale", product, email: "own@example.com" })
        const [delivery] = yield* query(
          t,
          (sql) => sql<{ id: string; event_id: string }>`
          SELECT id, event_id FROM webhook_deliveries WHERE webhook_id = ${webhook.id} LIMIT 1`
        )
        const routes: ReadonlyArray<readonly [string, string, unknown?]> = [
          ["GET", `/webhooks/${webhook.id}`],
          ["PATCH", `/webhooks/${webhook.id}`, { enabled: false }],
          ["DELETE", `/webhooks/${webhook.id}`],
          ["POST", `/webhooks/${webhook.id}/roll-secret`, {}],
          ["POST", `/webhooks/${webhook.id}/test`, {}],
          ["GET", `/webhooks/${webhook.id}/deliveries`],
          ["POST", `/deliveries/${delivery?.id}/resend`],
          ["GET", `/events/${delivery?.event_id}`]
        ]
        for (const [method, path, body] of routes) {
          const answer = yield* request(t.call, stranger.token, method, path, body)
          expect(answer.status, `${method} ${path}`).toBe(404)
          expect(answer.body).toMatchObject({ ok: false, error: "not_found" })
        }
        expect((yield* request(t.call, stranger.token, "GET", "/events")).body.data).toEqual([])
        expect((yield* request(t.call, stranger.token, "GET", "/webhooks")).body.webhooks).toEqual([])
        // Still there, unchanged, for its owner.
        expect(webhookOf(yield* request(t.call, owner.token, "GET", `/webhooks/${webhook.id}`)).enabled).toBe(true)
      })
    )

    it.effect("read keys may only GET (403 api_key_access); below Starter answers 402", () =>
      Effect.gen(function* () {
        const t = yield* WebhookTest
        const reader = yield* t.seller({ access: { kind: "custom", parts: { store: "read" } } })
        expect((yield* request(t.call, reader.token, "GET", "/webhooks")).status).toBe(200)
        expect((yield* request(t.call, reader.token, "GET", "/webhook-events")).status).toBe(200)
        expect((yield* request(t.call, reader.token, "GET", "/events")).status).toBe(200)
        const writes: ReadonlyArray<readonly [string, string, unknown?]> = [
          ["POST", "/webhooks", { url, events: ["*"] }],
          ["PATCH", "/webhooks/wh_x", { enabled: false }],
          ["DELETE", "/webhooks/wh_x"],
          ["POST", "/webhooks/wh_x/roll-secret"],
          ["POST", "/webhooks/wh_x/test"],
          ["POST", "/deliveries/dlv_x/resend"]
        ]
        for (const [method, path, body] of writes) {
          const answer = yield* request(t.call, reader.token, method, path, body)
          expect(answer.status, `${method} ${path}`).toBe(403)
          expect(answer.body).toMatchObject({ ok: false, error: "forbidden", code: "api_key_access" })
        }
        const free = yield* t.seller({ plan: "free" })
        for (const path of ["/webhooks", "/webhook-events", "/events"]) {
          const answer = yield* request(t.call, free.token, "GET", path)
          expect(answer.status).toBe(402)
          expect(answer.body).toMatchObject({ ok: false, error: "plan_required" })
        }
        expect((yield* request(t.call, undefined, "GET", "/webhooks")).status).toBe(401)
      })
    )
  }
)
