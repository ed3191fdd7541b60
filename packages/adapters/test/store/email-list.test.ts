import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { ApiKeys } from "@svc/core/auth"
import {
  ContactTaggedRow,
  EmailContactRow,
  EmailContactsRepo,
  EmailTagRow,
  resolveStoreCaller,
  StoreEmailList,
  StoreSetup,
  StoreTagging
} from "@svc/core/store"
import { Effect, Option } from "effect"
import { engineName } from "../support/database.js"
import { exactly, caller, StoreTest } from "./support.js"

type Harness = StoreTest["Type"]
type Row = Record<string, unknown>

const tagNames = (contact: unknown) => ((contact as Row).tags as Array<{ name: string }>).map((tag) => tag.name)

/** Sets a contact's state the API cannot set (bounces and complaints come from mail delivery). */
const markAs = (t: Harness, workspaceId: string, email: string, status: "bounced" | "complained") =>
  t.setUp(
    Effect.gen(function* () {
      const repo = yield* EmailContactsRepo
      const contact = Option.getOrThrow(yield* repo.find(workspaceId, email))
      yield* repo.update({ ...contact, status, unsubscribedAt: new Date() })
    })
  )

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `store email list (${engineName})`,
  (it) => {
    it.effect("adds, reads, changes and untags contacts, normalising addresses and tags", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const added = yield* send("POST", "/email-contacts", {
          email: "  Ann@Example.COM ",
          name: " Ann ",
          tags: ["VIP", " webinar ", "vip"]
        })
        expect(added.status).toBe(200)
        expect(added.body).toMatchObject({ ok: true, added: true })
        const contact = exactly(EmailContactRow, added.body.contact)
        expect(contact).toMatchObject({
          email: "ann@example.com",
          name: "Ann",
          status: "subscribed",
          source: "api",
          unsubscribed_at: null
        })
        expect(contact.id).toMatch(/^con_/)
        expect(tagNames(contact)).toEqual(["VIP", "webinar"])
        expect((added.body.tags_added as Array<Row>).map((tag) => tag.name)).toEqual(["VIP", "webinar"])

        // Already on the list: only the new tags are added, and the first spelling of a tag is kept.
        const again = yield* send("POST", "/email-contacts", { email: "ann@example.com", tags: ["WEBINAR", "New"] })
        expect(again.body).toMatchObject({ ok: true, added: false, tags_added: [{ name: "New" }] })
        expect(tagNames(again.body.contact)).toEqual(["New", "VIP", "webinar"])

        const read = yield* send("GET", "/email-contacts/ANN@example.com")
        expect(read.status).toBe(200)
        expect((read.body.contact as Row).email).toBe("ann@example.com")
        const missing = yield* send("GET", "/email-contacts/nobody@example.com")
        expect(missing.status).toBe(404)
        expect(missing.body).toMatchObject({ ok: false, error: "not_found" })

        const vip = (contact.tags as ReadonlyArray<{ id: string; name: string }>).find((tag) => tag.name === "VIP")
        const patched = yield* send("PATCH", "/email-contacts/ann@example.com", {
          name: "Ann Lee",
          add_tags: ["Buyer"],
          remove_tags: [vip?.id, "nothing-like-it"]
        })
        expect(patched.status).toBe(200)
        expect(patched.body.contact).toMatchObject({ name: "Ann Lee", status: "subscribed" })
        expect(tagNames(patched.body.contact)).toEqual(["Buyer", "New", "webinar"])
        const cleared = yield* send("PATCH", "/email-contacts/ann@example.com", { name: null })
        expect((cleared.body.contact as Row).name).toBeNull()

        const removed = yield* send("POST", "/email-contacts/remove-tags", {
          email: "ANN@example.com",
          tags: ["new", "VIP"]
        })
        expect(removed.body).toEqual({
          ok: true,
          result: "removed",
          removed: [{ id: expect.any(String), name: "New" }]
        })
        const notTagged = yield* send("POST", "/email-contacts/remove-tags", {
          email: "ann@example.com",
          tags: ["VIP"]
        })
        expect(notTagged.body).toEqual({ ok: true, result: "not_tagged", removed: [] })
        const notFound = yield* send("POST", "/email-contacts/remove-tags", { email: "zed@example.com", tags: ["VIP"] })
        expect(notFound.body).toEqual({ ok: true, result: "not_found", removed: [] })
        expect((yield* send("GET", "/email-contacts/zed@example.com")).status).toBe(404)

        const tags = yield* send("GET", "/email-tags?limit=100")
        expect(tags.status).toBe(200)
        const rows = (tags.body.data as Array<Row>).map((row) => exactly(EmailTagRow, row))
        expect(Object.fromEntries(rows.map((row) => [row.name, row.contacts]))).toEqual({
          VIP: 0,
          webinar: 1,
          New: 0,
          Buyer: 1
        })
        expect(tags.body).toMatchObject({ has_more: false, next_cursor: expect.any(String) })
      })
    )

    it.effect("follows the spec's states: 409 on subscribed true, and DELETE keeps whoever opted out", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        for (const email of ["out@example.com", "bounce@example.com", "spam@example.com", "gone@example.com"]) {
          expect((yield* send("POST", "/email-contacts", { email, tags: ["List"] })).status).toBe(200)
        }
        const out = yield* send("PATCH", "/email-contacts/out@example.com", { subscribed: false })
        expect(out.body.contact).toMatchObject({ status: "unsubscribed", unsubscribed_at: expect.any(String) })
        yield* markAs(t, s.workspaceId, "bounce@example.com", "bounced")
        yield* markAs(t, s.workspaceId, "spam@example.com", "complained")

        for (const [email, status] of [
          ["out@example.com", "unsubscribed"],
          ["bounce@example.com", "bounced"],
          ["spam@example.com", "complained"]
        ] as const) {
          const refused = yield* send("PATCH", `/email-contacts/${email}`, { subscribed: true, name: "Changed" })
          expect(refused.status).toBe(409)
          expect(refused.body).toMatchObject({ ok: false, error: "conflict" })
          // Nothing of a refused PATCH is applied, and a POST never subscribes them again.
          const posted = yield* send("POST", "/email-contacts", { email, tags: ["Again"] })
          expect(posted.body).toMatchObject({ added: false, contact: { status, name: null } })
          const deleted = yield* send("DELETE", `/email-contacts/${email}`)
          expect(deleted.body).toEqual({ ok: true, email, deleted: false, kept: true, status })
          expect((yield* send("GET", `/email-contacts/${email}`)).body.contact).toMatchObject({ status })
        }
        // subscribed false on someone already out changes nothing.
        const still = yield* send("PATCH", "/email-contacts/bounce@example.com", { subscribed: false })
        expect(still.body.contact).toMatchObject({ status: "bounced" })

        const gone = yield* send("DELETE", "/email-contacts/gone@example.com")
        expect(gone.body).toEqual({
          ok: true,
          email: "gone@example.com",
          deleted: true,
          kept: false,
          status: "subscribed"
        })
        expect((yield* send("GET", "/email-contacts/gone@example.com")).status).toBe(404)
        expect((yield* send("DELETE", "/email-contacts/gone@example.com")).status).toBe(404)
        expect((yield* send("PATCH", "/email-contacts/gone@example.com", { name: "X" })).status).toBe(404)
        // Back on the list as new, without the tags of before.
        const back = yield* send("POST", "/email-contacts", { email: "gone@example.com" })
        expect(back.body).toMatchObject({ added: true, contact: { status: "subscribed", tags: [] } })
      })
    )

    it.effect("pages contacts newest first and filters them by status and tag", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const emails = ["p1@example.com", "p2@example.com", "p3@example.com", "p4@example.com", "p5@example.com"]
        for (const [index, email] of emails.entries()) {
          yield* send("POST", "/email-contacts", { email, tags: index % 2 === 0 ? ["Even"] : ["Odd"] })
        }
        yield* send("PATCH", "/email-contacts/p2@example.com", { subscribed: false })

        const seen: Array<string> = []
        let cursor: string | undefined
        let pages = 0
        for (;;) {
          const page = yield* send(
            "GET",
            `/email-contacts?limit=2${cursor === undefined ? "" : `&starting_after=${cursor}`}`
          )
          expect(page.status).toBe(200)
          pages += 1
          for (const row of page.body.data as Array<Row>) seen.push(exactly(EmailContactRow, row).email)
          if (page.body.has_more !== true) break
          cursor = page.body.next_cursor as string
        }
        expect(pages).toBe(3)
        expect([...seen].sort()).toEqual(emails)

        const emailsOf = (path: string) =>
          Effect.map(send("GET", path), (answer) => {
            expect(answer.status).toBe(200)
            return (answer.body.data as Array<Row>).map((row) => row.email as string).sort()
          })
        expect(yield* emailsOf("/email-contacts?status=unsubscribed")).toEqual(["p2@example.com"])
        expect(yield* emailsOf("/email-contacts?status=subscribed&tag=odd")).toEqual(["p4@example.com"])
        expect(yield* emailsOf("/email-contacts?tag=EVEN")).toEqual([
          "p1@example.com",
          "p3@example.com",
          "p5@example.com"
        ])
        const odd = yield* send("GET", "/email-tags")
        const oddId = (odd.body.data as Array<Row>).find((row) => row.name === "Odd")?.id as string
        expect(yield* emailsOf(`/email-contacts?tag=${oddId}`)).toEqual(["p2@example.com", "p4@example.com"])
        expect(yield* emailsOf("/email-contacts?tag=nope")).toEqual([])
        expect(yield* emailsOf("/email-contacts?created_after=2999-01-01")).toEqual([])

        const badStatus = yield* send("GET", "/email-contacts?status=gone")
        expect(badStatus.status).toBe(400)
        expect(badStatus.body).toMatchObject({ ok: false, error: "bad_request" })
        expect((yield* send("GET", "/email-contacts?limit=0")).status).toBe(400)
        expect((yield* send("GET", "/email-tags?colour=red")).status).toBe(400)
      })
    )

    it.effect("shares tags with customers: one tag, found from either side", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const product = yield* t.liveProduct(s)
        yield* send("POST", "/customers", { product, email: "buyer@example.com", send_email: false })

        // A tag made through the email list is the one the customers list filters by.
        const tagged = yield* send("POST", "/email-contacts", { email: "buyer@example.com", tags: ["Alumni"] })
        const alumni = (tagged.body.tags_added as Array<{ id: string }>)[0]?.id
        for (const tag of ["alumni", alumni]) {
          const customers = yield* send("GET", `/customers?tag=${tag}`)
          expect((customers.body.data as Array<Row>).map((row) => [row.email, row.tags])).toEqual([
            ["buyer@example.com", ["Alumni"]]
          ])
        }
        // And a tag put on a customer the seller's way (svc customers tag) is on the contact.
        const made = yield* t.setUp(
          Effect.flatMap(StoreTagging, (tagging) => tagging.tagPerson(s.workspaceId, "buyer@example.com", ["Cohort A"]))
        )
        const cohortTag = made.tags.find((tag) => tag.name === "Cohort A")
        const contacts = yield* send("GET", `/email-contacts?tag=${cohortTag?.id}`)
        expect((contacts.body.data as Array<Row>).map((row) => tagNames(row))).toEqual([["Alumni", "Cohort A"]])
        const tags = yield* send("GET", "/email-tags")
        expect((tags.body.data as Array<Row>).map((row) => row.id).sort()).toEqual([alumni, cohortTag?.id].sort())

        // A customer who leaves the list keeps their tags; a contact removed by tag id keeps the others.
        expect((yield* send("DELETE", "/email-contacts/buyer@example.com")).body).toMatchObject({ deleted: true })
        const customer = yield* send("GET", "/customers/buyer@example.com")
        expect((customer.body.customer as Row).tags).toEqual(["Alumni", "Cohort A"])
      })
    )

    it.effect("writes contact.tagged for each tag newly on a contact, and serves them as the Contact Tagged feed", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const webhook = yield* send("POST", "/webhooks", {
          url: "https://hooks.example.com/svc",
          events: ["contact.tagged"]
        })
        expect(webhook.status).toBe(201)

        yield* send("POST", "/email-contacts", { email: "lee@example.com", name: "Lee", tags: ["Webinar", "Lead"] })
        yield* send("POST", "/email-contacts", { email: "lee@example.com", tags: ["webinar"] }) // had it: no event
        yield* send("PATCH", "/email-contacts/max@example.com", { add_tags: ["Lead"] }) // not on the list: 404
        yield* send("POST", "/email-contacts", { email: "max@example.com" })
        yield* send("PATCH", "/email-contacts/max@example.com", { add_tags: ["Lead"] })
        // Tagging someone who is not on the list is no Contact Tagged.
        yield* t.setUp(
          Effect.flatMap(StoreTagging, (tagging) => tagging.tagPerson(s.workspaceId, "stranger@example.com", ["Lead"]))
        )

        const events = (yield* t.events(s.workspaceId)).filter((event) => event.type === "contact.tagged")
        expect(events.map((event) => [event.data.email, event.data.tag_name])).toEqual([
          ["lee@example.com", "Webinar"],
          ["lee@example.com", "Lead"],
          ["max@example.com", "Lead"]
        ])
        expect(events[1]?.data).toEqual({
          email: "lee@example.com",
          name: "Lee",
          tag_id: expect.stringMatching(/^tag_/),
          tag_name: "Lead",
          created_at: expect.any(String)
        })

        const feed = yield* send("GET", "/email-contacts/tagged")
        expect(feed.status).toBe(200)
        expect(Object.keys(feed.body).sort()).toEqual(["contacts", "ok"])
        const rows = (feed.body.contacts as Array<Row>).map((row) => exactly(ContactTaggedRow, row))
        expect(rows).toHaveLength(3)
        expect(rows.every((row) => row.id.startsWith("evt_"))).toBe(true)
        const leadId = events[1]?.data.tag_id as string
        const byTag = (tag: string) =>
          Effect.map(send("GET", `/email-contacts/tagged?tag=${tag}`), (answer) =>
            (answer.body.contacts as Array<Row>).map((row) => row.email).sort()
          )
        expect(yield* byTag(leadId)).toEqual(["lee@example.com", "max@example.com"])
        expect(yield* byTag("WEBINAR")).toEqual(["lee@example.com"])
        expect(yield* byTag("tag_unknown")).toEqual([])

        // The same events are in the event log of the store API, each queued for the subscribed webhook.
        const logged = yield* send("GET", "/events?type=contact.tagged")
        expect((logged.body.data as Array<Row>).map((event) => event.id).sort()).toEqual(rows.map((r) => r.id).sort())
        const queued = yield* t.setUp(
          Effect.flatMap(SqlClient.SqlClient, (sql) =>
            sql<{ event_id: string }>`SELECT event_id FROM webhook_deliveries
                                    WHERE workspace_id = ${s.workspaceId} AND event_type = 'contact.tagged'`.pipe(
              Effect.orDie
            )
          )
        )
        expect(queued.map((row) => row.event_id).sort()).toEqual(rows.map((r) => r.id).sort())
        const catalog = yield* send("GET", "/webhook-events")
        const email = (catalog.body.groups as Array<{ group: string; events: Array<Row> }>).find(
          (g) => g.group === "Email"
        )
        expect(email?.events).toContainEqual({ type: "contact.tagged", emitted: true })
      })
    )

    it.effect("writes no lead.created for a person the API adds: New Email Signup is the sign-ups' feed", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const added = yield* send("POST", "/email-contacts", { email: "kim@example.com", name: "Kim", tags: ["Lead"] })
        expect(added.body).toMatchObject({ ok: true, added: true })

        const types = (yield* t.events(s.workspaceId)).map((event) => event.type)
        expect(types).toContain("contact.tagged")
        expect(types).not.toContain("lead.created")
        const signups = yield* send("GET", "/email-signups/recent")
        expect(signups.body).toEqual({ ok: true, signups: [] })
        // The type is emitted all the same: a sign-up on the store's page writes it.
        const catalog = yield* send("GET", "/webhook-events")
        const email = (catalog.body.groups as Array<{ group: string; events: Array<Row> }>).find(
          (g) => g.group === "Email"
        )
        expect(email?.events).toContainEqual({ type: "lead.created", emitted: true })
      })
    )

    it.effect("puts buyers on the list as subscribed when they buy, unless the seller turned it off", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const product = yield* t.liveProduct(s)
        yield* send("POST", "/email-contacts", { email: "out@example.com" })
        yield* send("PATCH", "/email-contacts/out@example.com", { subscribed: false })

        const sale = (email: string, name?: string) =>
          Effect.map(send("POST", "/sales", { event: "sale", product, email, name }), (answer) => answer.body.status)
        expect(yield* sale("Sam@Example.com", "Sam")).toBe("granted")
        expect(yield* sale("out@example.com")).toBe("granted")
        yield* send("POST", "/customers", { product, email: "gift@example.com", send_email: false })
        const tool = yield* t.tool(s.token, "svc_manage_sales", {
          action: "record",
          event: "sale",
          productId: product,
          email: "tool@example.com",
          orderId: "tool-1"
        })
        expect(tool).toMatchObject({ ok: true, status: "granted" })

        const list = yield* send("GET", "/email-contacts?limit=100")
        const byEmail = Object.fromEntries((list.body.data as Array<Row>).map((row) => [row.email, row]))
        expect(byEmail["sam@example.com"]).toMatchObject({ status: "subscribed", source: "purchase", name: "Sam" })
        expect(byEmail["gift@example.com"]).toMatchObject({ status: "subscribed", source: "purchase" })
        expect(byEmail["tool@example.com"]).toMatchObject({ status: "subscribed", source: "purchase" })
        // Someone who unsubscribed stays unsubscribed when they buy.
        expect(byEmail["out@example.com"]).toMatchObject({ status: "unsubscribed", source: "api" })

        yield* t.setUp(Effect.flatMap(StoreSetup, (setup) => setup.set(s.workspaceId, { emailListAddBuyers: false })))
        expect(yield* sale("quiet@example.com")).toBe("granted")
        yield* send("POST", "/customers", { product, email: "quiet-gift@example.com", send_email: false })
        expect((yield* send("GET", "/email-contacts/quiet@example.com")).status).toBe(404)
        expect((yield* send("GET", "/email-contacts/quiet-gift@example.com")).status).toBe(404)
        const settings = yield* t.setUp(Effect.flatMap(StoreSetup, (setup) => setup.get(s.workspaceId)))
        expect(settings).toMatchObject({ emailListAddBuyers: false, supportEmail: "help@example.com" })
      })
    )

    it.effect("refuses bad input with 422 naming the field", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const refused = (method: string, path: string, body: unknown) =>
          Effect.map(send(method, path, body), (answer) => {
            expect(answer.status).toBe(422)
            expect(answer.body).toMatchObject({ ok: false, error: "invalid_field" })
            return (answer.body.errors as Array<{ path: string }>).map((problem) => problem.path)
          })
        expect(yield* refused("POST", "/email-contacts", { email: "not-an-email" })).toEqual(["email"])
        expect(yield* refused("POST", "/email-contacts", { email: "a@example.com", tags: ["x".repeat(51)] })).toEqual([
          "tags.0"
        ])
        expect(yield* refused("POST", "/email-contacts", { email: "a@example.com", tags: [" "] })).toEqual(["tags.0"])
        const many = Array.from({ length: 21 }, (_, i) => `t${i}`)
        expect(yield* refused("POST", "/email-contacts", { email: "a@example.com", tags: many })).toEqual(["tags"])
        expect(yield* refused("POST", "/email-contacts", { email: "a@example.com", tags: ["tag_nope"] })).toEqual([
          "tags.0"
        ])
        expect(yield* refused("POST", "/email-contacts", { email: "a@example.com", colour: "red" })).toEqual(["colour"])
        expect(yield* refused("POST", "/email-contacts/remove-tags", { email: "a@example.com" })).toEqual(["tags"])
        yield* send("POST", "/email-contacts", { email: "a@example.com" })
        expect(
          yield* refused("PATCH", "/email-contacts/a@example.com", { add_tags: ["Same"], remove_tags: ["same"] })
        ).toEqual(["remove_tags"])
        expect(yield* refused("PATCH", "/email-contacts/a@example.com", { subscribed: "yes" })).toEqual(["subscribed"])
        expect(yield* refused("PATCH", "/email-contacts/a@example.com", { name: "n".repeat(201) })).toEqual(["name"])
        // Nothing of those was stored: no tag was made.
        expect((yield* send("GET", "/email-tags")).body.data).toEqual([])
        expect((yield* send("GET", "/email-contacts/not-an-email")).status).toBe(400)
      })
    )

    it.effect("lets a Store-on-Read key read but not change (403), and automation connections manage contacts", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const reader = yield* t.seller({ access: { kind: "custom", parts: { store: "read" } } })
        const send = caller(t, reader.token)
        for (const [method, path, body] of [
          ["POST", "/email-contacts", { email: "a@example.com" }],
          ["POST", "/email-contacts/remove-tags", { email: "a@example.com", tags: ["x"] }],
          ["PATCH", "/email-contacts/a@example.com", { name: "A" }],
          ["DELETE", "/email-contacts/a@example.com", undefined]
        ] as const) {
          const answer = yield* send(method, path, body)
          expect(answer.status).toBe(403)
          expect(answer.body).toMatchObject({ ok: false, error: "forbidden", code: "api_key_access" })
        }
        for (const path of ["/email-contacts", "/email-tags", "/email-contacts/tagged"]) {
          expect((yield* send("GET", path)).status).toBe(200)
        }

        // An automation connection (OAuth, scope store) is refused product changes only: it manages contacts.
        const owner = yield* t.seller()
        const answer = yield* t.setUp(
          Effect.gen(function* () {
            const principal = yield* (yield* ApiKeys).authenticate(owner.token)
            const automation = yield* resolveStoreCaller(
              { ...principal, credential: { kind: "oauth", id: "tok_1" }, reach: "account" },
              true
            )
            expect(automation.automation).toBe(true)
            const list = yield* StoreEmailList
            yield* list.add(automation, { email: "zap@example.com", tags: ["Zapier"] })
            return yield* list.update(automation, "zap@example.com", { subscribed: false })
          })
        )
        expect(answer).toMatchObject({ email: "zap@example.com", status: "unsubscribed" })
      })
    )
  }
)
