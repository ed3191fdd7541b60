/** svc_manage_store_emails through the real tool server: contacts, tags, sequences, settings, refusals, access. */
import { expect, layer } from "@effect/vitest"
import { StoreSetup } from "@svc/core/store"
import { Effect } from "effect"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

type Row = Record<string, unknown>

const TOOL = "svc_manage_store_emails"

const steps = [
  { delayMinutes: 0, subject: "Hi", body: "Welcome." },
  { delayMinutes: 1440, subject: "Day two", body: "More." }
]

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `svc_manage_store_emails (${engineName})`,
  (it) => {
    it.effect("manages contacts and reads tags, answering the record as it now is", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const use = (args: Row) => t.tool(s.token, TOOL, args)

        const added = yield* use({ action: "add_contact", email: " Kim@Example.com ", name: "Kim", tags: ["VIP"] })
        expect(added).toMatchObject({
          ok: true,
          contact: { email: "kim@example.com", name: "Kim", status: "subscribed", tags: [{ name: "VIP" }] }
        })
        yield* use({ action: "add_contact", email: "lee@example.com" })
        expect(yield* use({ action: "get_contact", email: "KIM@example.com" })).toMatchObject({
          contact: { email: "kim@example.com" }
        })
        const updated = yield* use({
          action: "update_contact",
          email: "kim@example.com",
          name: "Kim Park",
          tags: ["Buyer"],
          removeTags: ["vip"]
        })
        expect(updated).toMatchObject({ ok: true, contact: { name: "Kim Park", tags: [{ name: "Buyer" }] } })

        const page = yield* use({ action: "list_contacts", limit: 1 })
        expect((page.contacts as Array<Row>).map((c) => c.email)).toEqual(["lee@example.com"])
        expect(page.nextCursor).toEqual(expect.any(String))
        const rest = yield* use({ action: "list_contacts", limit: 1, cursor: page.nextCursor })
        expect((rest.contacts as Array<Row>).map((c) => c.email)).toEqual(["kim@example.com"])
        expect(rest.nextCursor).toBeUndefined()
        const tags = yield* use({ action: "list_tags" })
        expect(Object.fromEntries((tags.tags as Array<Row>).map((tag) => [tag.name, tag.contacts]))).toEqual({
          VIP: 0,
          Buyer: 1
        })

        expect(yield* use({ action: "update_contact", email: "lee@example.com", subscribed: false })).toMatchObject({
          contact: { email: "lee@example.com", status: "unsubscribed" }
        })
        // The list's counts come with every page; a status narrows the page, never the counts.
        const unsubscribed = yield* use({ action: "list_contacts", status: "unsubscribed" })
        expect((unsubscribed.contacts as Array<Row>).map((c) => c.email)).toEqual(["lee@example.com"])
        expect(unsubscribed.counts).toEqual({ subscribed: 1, unsubscribed: 1, bounced: 0, complained: 0, total: 2 })
        expect(yield* use({ action: "list_contacts", status: "bounced" })).toMatchObject({ contacts: [] })
        expect(yield* use({ action: "list_contacts", status: "gone" })).toMatchObject({
          ok: false,
          status: "invalid",
          errors: [{ path: "status" }]
        })
        // Someone who opted out stays on the list, so a later purchase cannot email them.
        expect(yield* use({ action: "remove_contact", email: "lee@example.com" })).toEqual({ ok: true, deleted: false })
        expect(yield* use({ action: "remove_contact", email: "kim@example.com" })).toEqual({ ok: true, deleted: true })
        expect(yield* use({ action: "list_contacts", sequenceId: "seq_1" })).toMatchObject({
          ok: false,
          status: "invalid",
          errors: [{ path: "sequenceId" }]
        })
        expect(yield* use({ action: "get_contact", email: "kim@example.com" })).toMatchObject({
          ok: false,
          status: "not-found"
        })
        // Resubscribing someone who unsubscribed is theirs to do.
        expect(yield* use({ action: "update_contact", email: "lee@example.com", subscribed: true })).toMatchObject({
          ok: false,
          status: "conflict"
        })
      })
    )

    it.effect("creates, reads, changes, pauses and deletes sequences", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const use = (args: Row) => t.tool(s.token, TOOL, args)
        const product = yield* t.liveProduct(s)

        const created = yield* use({
          action: "create_sequence",
          name: " Welcome ",
          steps,
          tags: ["Lead", "lead"],
          products: [product]
        })
        expect(created).toMatchObject({
          ok: true,
          sequence: {
            name: "Welcome",
            state: "active",
            starts_when: { tags: [{ name: "Lead" }], products: [product] },
            steps: [
              { delay_minutes: 0, subject: "Hi", body: "Welcome." },
              { delay_minutes: 1440, subject: "Day two", body: "More." }
            ],
            enrolments: { active: 0, completed: 0, stopped: 0 }
          }
        })
        const id = (created.sequence as Row).id
        expect(id).toMatch(/^seq_/)

        expect(yield* use({ action: "update_sequence", sequenceId: id, name: "Hello" })).toMatchObject({
          sequence: { state: "active", name: "Hello", steps: [{}, {}] }
        })
        expect(yield* use({ action: "pause_sequence", sequenceId: id })).toMatchObject({
          sequence: { state: "paused", name: "Hello" }
        })
        expect(yield* use({ action: "resume_sequence", sequenceId: id })).toMatchObject({
          sequence: { state: "active" }
        })
        const changed = yield* use({
          action: "update_sequence",
          sequenceId: id,
          steps: [{ delayMinutes: 5, subject: "Only", body: "One step." }],
          products: []
        })
        expect(changed).toMatchObject({
          sequence: {
            state: "active",
            starts_when: { tags: [{ name: "Lead" }], products: [] },
            steps: [{ delay_minutes: 5, subject: "Only", body: "One step." }]
          }
        })
        expect(yield* use({ action: "get_sequence", sequenceId: id })).toMatchObject({
          sequence: { id, name: "Hello" }
        })
        const listed = yield* use({ action: "list_sequences" })
        expect((listed.sequences as Array<Row>).map((row) => row.id)).toEqual([id])
        expect(yield* use({ action: "delete_sequence", sequenceId: id })).toEqual({ ok: true, deleted: true })
        expect(yield* use({ action: "get_sequence", sequenceId: id })).toMatchObject({ status: "not-found" })
        expect(yield* use({ action: "delete_sequence", sequenceId: id })).toMatchObject({ status: "not-found" })
      })
    )

    it.effect("refuses bad sequences naming the field, and keeps to the store's limit", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const use = (args: Row) => t.tool(s.token, TOOL, args)
        const refusedAt = (args: Row) =>
          Effect.map(use(args), (answer) => {
            expect(answer).toMatchObject({ ok: false, status: "invalid" })
            return (answer.errors as Array<{ path: string }>).map((problem) => problem.path)
          })
        const base = { action: "create_sequence", name: "S", steps, tags: ["Lead"] }
        expect(yield* refusedAt({ ...base, name: undefined })).toEqual(["name"])
        expect(yield* refusedAt({ ...base, name: "  " })).toEqual(["name"])
        expect(yield* refusedAt({ ...base, steps: [] })).toEqual(["steps"])
        expect(yield* refusedAt({ ...base, steps: [{ ...steps[0], subject: "Hi\nBcc: x@example.com" }] })).toEqual([
          "steps.0.subject"
        ])
        expect(yield* refusedAt({ ...base, steps: [steps[0], { ...steps[1], body: " " }] })).toEqual(["steps.1.body"])
        expect(yield* refusedAt({ ...base, steps: [{ ...steps[0], delayMinutes: -1 }] })).toEqual([
          "steps.0.delayMinutes"
        ])
        expect(yield* refusedAt({ ...base, steps: Array.from({ length: 21 }, () => steps[0]) })).toEqual(["steps"])
        expect(yield* refusedAt({ ...base, tags: [] })).toEqual(["tags"])
        expect(yield* refusedAt({ ...base, tags: ["tag_unknown"] })).toEqual(["tags.0"])
        expect(yield* refusedAt({ ...base, tags: undefined, products: ["prod_nope"] })).toEqual(["products.0"])
        expect(yield* refusedAt({ ...base, email: "a@example.com" })).toEqual(["email"])
        expect(yield* refusedAt({ action: "update_sequence", name: "x" })).toEqual(["sequenceId"])
        expect(yield* refusedAt({ action: "add_contact", email: "nope" })).toEqual(["email"])
        expect(
          yield* refusedAt({ action: "update_contact", email: "a@example.com", tags: ["A"], removeTags: ["a"] })
        ).toEqual(["removeTags"])
        expect(yield* use({ action: "update_sequence", sequenceId: "seq_nope", name: "x" })).toMatchObject({
          ok: false,
          status: "not-found"
        })
        // Nothing was stored by any of those.
        expect(yield* use({ action: "list_sequences" })).toEqual({ ok: true, sequences: [] })

        for (let n = 0; n < 50; n++) yield* use({ ...base, name: `S${n}` })
        const over = yield* use({ ...base, name: "One more" })
        expect(over).toMatchObject({ ok: false, status: "conflict" })
        expect(String(over.message)).toMatch(/at most 50 sequences/)
      })
    )

    it.effect("reads and changes the store's email settings", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const use = (args: Row) => t.tool(s.token, TOOL, args)
        expect(yield* use({ action: "settings" })).toEqual({
          ok: true,
          settings: { addBuyers: true, doubleOptIn: false }
        })
        expect(yield* use({ action: "settings", doubleOptIn: true })).toEqual({
          ok: true,
          settings: { addBuyers: true, doubleOptIn: true }
        })
        expect(yield* use({ action: "settings", addBuyers: false })).toEqual({
          ok: true,
          settings: { addBuyers: false, doubleOptIn: true }
        })
        const stored = yield* t.setUp(Effect.flatMap(StoreSetup, (setup) => setup.get(s.workspaceId)))
        expect(stored).toMatchObject({
          emailListAddBuyers: false,
          emailDoubleOptIn: true,
          supportEmail: "help@example.com"
        })
      })
    )

    it.effect("a Store-read key cannot use the tool (it changes data) and reads the list through the store API", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const reader = yield* t.seller({ access: { kind: "custom", parts: { store: "read" } } })
        for (const action of ["list_contacts", "list_sequences", "create_sequence"]) {
          const refused = yield* t.tool(reader.token, TOOL, { action })
          expect(refused).toMatchObject({ ok: false, status: "forbidden" })
          expect(String(refused.message)).toMatch(/may only read/)
        }
        for (const path of ["/email-contacts", "/email-tags", "/email-sequences"]) {
          expect((yield* Effect.promise(() => t.call(reader.token, "GET", path))).status).toBe(200)
        }
      })
    )
  }
)
