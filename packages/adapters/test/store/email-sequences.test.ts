/**
 * Email sequences end to end on the real test database: enrolment by a tag through the store API and by a purchase,
 * the worker's steps under the test clock (two workers and a lost lease included), stopping on unsubscribe, and
 * `GET /email-sequences`.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { MailingList, SEQUENCE_STEP_KIND } from "@svc/core/mail"
import {
  claimDueEnrolments,
  EmailContactsRepo,
  EmailSequenceRow,
  runDueSequenceSteps,
  runSequenceWorker,
  StoreTagging,
  sendDueStep
} from "@svc/core/store"
import { Duration, Effect, type Layer, Option, Schema, TestClock, TestContext } from "effect"
import type { testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { caller, StoreTest } from "./support.js"

type Harness = StoreTest["Type"]
type Row = Record<string, unknown>

const MINUTE = 60_000
const worker = { leaseMs: 60_000, concurrency: 4 }

/** The sequence mails of a workspace, oldest first. */
const mailsOf = (t: Harness, workspaceId: string) =>
  t.setUp(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ recipient: string; subject: string; body: string; to_list: boolean; created_at: Date }>`
        SELECT recipient, subject, body, to_list, created_at FROM mail_outbox
        WHERE workspace_id = ${workspaceId} AND kind = ${SEQUENCE_STEP_KIND} ORDER BY created_at, id`
    ).pipe(Effect.orDie)
  )

/** The enrolments of a workspace, by email. */
const enrolmentsOf = (t: Harness, workspaceId: string) =>
  t.setUp(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{
        email: string
        state: string
        next_step: number
        next_due_at: Date | null
        started_at: Date
        stop_reason: string | null
      }>`SELECT email, state, next_step, next_due_at, started_at, stop_reason FROM store_email_sequence_enrolments
         WHERE workspace_id = ${workspaceId} ORDER BY email`
    ).pipe(Effect.orDie)
  )

/** Runs the worker's looks until nothing is due (earlier tests' enrolments of other stores may be due too). */
const drain = (t: Harness) =>
  t.setUp(
    Effect.gen(function* () {
      while ((yield* runDueSequenceSteps(worker)) > 0) {}
    })
  )

const realPause = Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 10)))

const eventually = <E, R>(check: Effect.Effect<boolean, E, R>) =>
  Effect.gen(function* () {
    for (let tries = 0; tries < 1_000; tries++) {
      if (yield* check) return
      yield* realPause
    }
    return yield* Effect.dieMessage("the condition never came true")
  })

const twoSteps = {
  name: "Welcome",
  steps: [
    { delayMinutes: 10, subject: "Welcome aboard", body: "Hello! Here is what to expect." },
    { delayMinutes: 60, subject: "Your first lesson", body: "Lesson one is ready." }
  ]
}

/** Makes a sequence through the tool; answers its record. */
const createSequence = (t: Harness, token: string, fields: Row) =>
  Effect.map(t.tool(token, "svc_manage_store_emails", { action: "create_sequence", ...fields }), (answer) => {
    expect(answer).toMatchObject({ ok: true })
    return answer.sequence as Row
  })

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `store email sequences (${engineName})`,
  (it) => {
    it.effect("a tag through the store API starts a two-step sequence, sent in order at its times, once", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const sequence = yield* createSequence(t, s.token, { ...twoSteps, tags: ["Lead"] })
        expect(sequence).toMatchObject({ state: "active", starts_when: { tags: [{ name: "Lead" }], products: [] } })

        const added = yield* send("POST", "/email-contacts", { email: "Ann@Example.com", tags: ["lead"] })
        expect(added.status).toBe(200)
        const [enrolment] = yield* enrolmentsOf(t, s.workspaceId)
        expect(enrolment).toMatchObject({ email: "ann@example.com", state: "active", next_step: 0 })
        const started = enrolment?.started_at.getTime() ?? 0
        expect(enrolment?.next_due_at?.getTime()).toBe(started + 10 * MINUTE)

        // Not a moment before the first step's time.
        yield* TestClock.setTime(started + 10 * MINUTE - 1)
        yield* drain(t)
        expect(yield* mailsOf(t, s.workspaceId)).toEqual([])
        yield* TestClock.setTime(started + 10 * MINUTE)
        yield* drain(t)
        const first = yield* mailsOf(t, s.workspaceId)
        expect(first).toHaveLength(1)
        expect(first[0]).toMatchObject({
          recipient: "ann@example.com",
          subject: "Welcome aboard",
          body: "Hello! Here is what to expect.",
          to_list: true
        })
        expect(first[0]?.created_at.getTime()).toBe(started + 10 * MINUTE)

        // The tag again (taken off and put back), or through the customers' tagging: no restart, no second enrolment.
        yield* send("POST", "/email-contacts/remove-tags", { email: "ann@example.com", tags: ["Lead"] })
        yield* send("PATCH", "/email-contacts/ann@example.com", { add_tags: ["Lead"] })
        const again = yield* enrolmentsOf(t, s.workspaceId)
        expect(again).toHaveLength(1)
        expect(again[0]).toMatchObject({ state: "active", next_step: 1 })
        expect(again[0]?.next_due_at?.getTime()).toBe(started + 70 * MINUTE)

        yield* TestClock.setTime(started + 70 * MINUTE - 1)
        yield* drain(t)
        expect(yield* mailsOf(t, s.workspaceId)).toHaveLength(1)
        yield* TestClock.setTime(started + 70 * MINUTE)
        yield* drain(t)
        const both = yield* mailsOf(t, s.workspaceId)
        expect(both.map((m) => m.subject)).toEqual(["Welcome aboard", "Your first lesson"])
        expect(both[1]?.created_at.getTime()).toBe(started + 70 * MINUTE)
        expect((yield* enrolmentsOf(t, s.workspaceId))[0]).toMatchObject({ state: "completed", next_due_at: null })

        // Done: later looks send nothing more.
        yield* TestClock.adjust(Duration.days(30))
        yield* drain(t)
        expect(yield* mailsOf(t, s.workspaceId)).toHaveLength(2)
        const listed = yield* send("GET", "/email-sequences")
        expect((listed.body.data as Array<Row>)[0]).toMatchObject({
          id: sequence.id,
          enrolments: { active: 0, completed: 1, stopped: 0 }
        })
      }).pipe(Effect.provide(TestContext.TestContext))
    )

    it.effect("a purchase of a start product enrols a subscribed buyer, and never one who opted out", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const product = yield* t.liveProduct(s)
        const other = yield* t.liveProduct(s)
        yield* createSequence(t, s.token, {
          name: "Onboarding",
          steps: [{ delayMinutes: 0, subject: "Thanks for buying", body: "Start here." }],
          products: [product]
        })
        yield* send("POST", "/email-contacts", { email: "gone@example.com" })
        yield* send("PATCH", "/email-contacts/gone@example.com", { subscribed: false })

        const sale = (email: string, productId = product) =>
          Effect.map(send("POST", "/sales", { event: "sale", product: productId, email }), (a) => a.body.status)
        expect(yield* sale("buyer@example.com")).toBe("granted")
        expect(yield* sale("gone@example.com")).toBe("granted")
        expect(yield* sale("elsewhere@example.com", other)).toBe("granted")
        // A free grant of the product enrols as a sale does.
        yield* send("POST", "/customers", { product, email: "gift@example.com", send_email: false })
        expect((yield* enrolmentsOf(t, s.workspaceId)).map((e) => e.email)).toEqual([
          "buyer@example.com",
          "gift@example.com"
        ])

        // With buyers kept off the list, a buyer who is not on it is never enrolled (nor mailed).
        yield* t.tool(s.token, "svc_manage_store_emails", { action: "settings", addBuyers: false })
        expect(yield* sale("quiet@example.com")).toBe("granted")
        expect(yield* enrolmentsOf(t, s.workspaceId)).toHaveLength(2)

        // Both first steps are due: the sales ran on the real clock, seconds apart on a busy machine.
        const due = (yield* enrolmentsOf(t, s.workspaceId)).map((e) => e.next_due_at?.getTime() ?? 0)
        yield* TestClock.setTime(Math.max(...due))
        yield* TestClock.adjust(Duration.seconds(1))
        yield* drain(t)
        expect((yield* mailsOf(t, s.workspaceId)).map((m) => m.recipient).sort()).toEqual([
          "buyer@example.com",
          "gift@example.com"
        ])
      }).pipe(Effect.provide(TestContext.TestContext))
    )

    it.effect("the customers' tagging starts sequences too, for people on the list only", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        yield* createSequence(t, s.token, { ...twoSteps, tags: ["Vip"] })
        yield* send("POST", "/email-contacts", { email: "fay@example.com" })
        const tag = (email: string) =>
          t.setUp(Effect.flatMap(StoreTagging, (tagging) => tagging.tagPerson(s.workspaceId, email, ["VIP"])))
        yield* tag("fay@example.com")
        // Not on the email list: tagged as a customer, never enrolled (so never mailed), even after joining later.
        yield* tag("stranger@example.com")
        yield* send("POST", "/email-contacts", { email: "stranger@example.com" })
        expect(yield* enrolmentsOf(t, s.workspaceId)).toMatchObject([{ email: "fay@example.com", state: "active" }])
      })
    )

    it.effect("an unsubscribe (PATCH subscribed false) stops the sequence before its second step", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        yield* createSequence(t, s.token, { ...twoSteps, tags: ["Lead"] })
        yield* send("POST", "/email-contacts", { email: "bo@example.com", tags: ["Lead"] })
        yield* send("POST", "/email-contacts", { email: "cy@example.com", tags: ["Lead"] })
        const started = (yield* enrolmentsOf(t, s.workspaceId))[0]?.started_at.getTime() ?? 0
        yield* TestClock.setTime(started + 11 * MINUTE)
        yield* drain(t)
        expect(yield* mailsOf(t, s.workspaceId)).toHaveLength(2)

        expect((yield* send("PATCH", "/email-contacts/bo@example.com", { subscribed: false })).status).toBe(200)
        // Through the list's own paths (the API, the tool, unsubscribe links, bounces) the sequences stop at once. A
        // state written any other way (here straight into the store) is caught by the worker before the next step.
        yield* t.setUp(
          Effect.gen(function* () {
            const repo = yield* EmailContactsRepo
            const contact = Option.getOrThrow(yield* repo.find(s.workspaceId, "cy@example.com"))
            yield* repo.update({ ...contact, status: "complained", unsubscribedAt: new Date() })
          })
        )
        expect((yield* enrolmentsOf(t, s.workspaceId)).map((e) => e.state)).toEqual(["stopped", "active"])

        yield* TestClock.adjust(Duration.days(2))
        yield* drain(t)
        expect((yield* mailsOf(t, s.workspaceId)).map((m) => m.subject)).toEqual(["Welcome aboard", "Welcome aboard"])
        expect(yield* enrolmentsOf(t, s.workspaceId)).toMatchObject([
          { email: "bo@example.com", state: "stopped", stop_reason: "unsubscribed", next_step: 1 },
          { email: "cy@example.com", state: "stopped", stop_reason: "complained", next_step: 1 }
        ])
        // Someone who unsubscribed is never enrolled again by a tag.
        yield* send("PATCH", "/email-contacts/bo@example.com", { add_tags: ["Other"] })
        yield* createSequence(t, s.token, { ...twoSteps, name: "Other", tags: ["Other"] })
        yield* send("PATCH", "/email-contacts/bo@example.com", { remove_tags: ["Other"] })
        yield* send("PATCH", "/email-contacts/bo@example.com", { add_tags: ["Other"] })
        expect(yield* enrolmentsOf(t, s.workspaceId)).toHaveLength(2)
      }).pipe(Effect.provide(TestContext.TestContext))
    )

    it.effect("a bounce or an unsubscribe link (mail delivery's opt-out) stops the sequence too", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        yield* createSequence(t, s.token, { ...twoSteps, tags: ["Lead"] })
        for (const email of ["gil@example.com", "hal@example.com"]) {
          yield* send("POST", "/email-contacts", { email, tags: ["Lead"] })
        }
        const started = (yield* enrolmentsOf(t, s.workspaceId))[0]?.started_at.getTime() ?? 0
        yield* t.setUp(
          Effect.flatMap(MailingList, (list) =>
            Effect.all([
              list.optOut(s.workspaceId, "gil@example.com", "bounced"),
              list.optOut(s.workspaceId, "hal@example.com", "unsubscribed")
            ])
          )
        )
        yield* TestClock.setTime(started + 11 * MINUTE)
        yield* drain(t)
        expect(yield* mailsOf(t, s.workspaceId)).toEqual([])
        expect((yield* enrolmentsOf(t, s.workspaceId)).map((e) => [e.state, e.stop_reason])).toEqual([
          ["stopped", "bounced"],
          ["stopped", "unsubscribed"]
        ])
      }).pipe(Effect.provide(TestContext.TestContext))
    )

    it.effect("a paused sequence enrols no one and holds its steps until resumed", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const sequence = yield* createSequence(t, s.token, { ...twoSteps, tags: ["Lead"] })
        yield* send("POST", "/email-contacts", { email: "dee@example.com", tags: ["Lead"] })
        const pause = (action: "pause_sequence" | "resume_sequence") =>
          t.tool(s.token, "svc_manage_store_emails", { action, sequenceId: sequence.id })
        expect(yield* pause("pause_sequence")).toMatchObject({ ok: true, sequence: { state: "paused" } })
        yield* send("POST", "/email-contacts", { email: "eve@example.com", tags: ["Lead"] })
        const [enrolment] = yield* enrolmentsOf(t, s.workspaceId)
        yield* TestClock.setTime((enrolment?.started_at.getTime() ?? 0) + 20 * MINUTE)
        yield* drain(t)
        expect(yield* mailsOf(t, s.workspaceId)).toEqual([])
        expect((yield* enrolmentsOf(t, s.workspaceId)).map((e) => e.email)).toEqual(["dee@example.com"])
        yield* pause("resume_sequence")
        yield* drain(t)
        expect((yield* mailsOf(t, s.workspaceId)).map((m) => m.recipient)).toEqual(["dee@example.com"])
      }).pipe(Effect.provide(TestContext.TestContext))
    )

    it.scoped("two worker loops on one database send each step once; a worker that lost its lease sends nothing", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        yield* createSequence(t, s.token, {
          name: "Busy",
          steps: [
            { delayMinutes: 1, subject: "One", body: "First." },
            { delayMinutes: 1, subject: "Two", body: "Second." }
          ],
          tags: ["Busy"]
        })
        const people = Array.from({ length: 12 }, (_, i) => `p${String(i).padStart(2, "0")}@example.com`)
        for (const email of people) yield* send("POST", "/email-contacts", { email, tags: ["Busy"] })
        const started = Math.max(...(yield* enrolmentsOf(t, s.workspaceId)).map((e) => e.started_at.getTime()))
        yield* TestClock.setTime(started)

        // A lease that ends: the first holder loses the enrolment to a second worker, and then changes nothing.
        yield* TestClock.adjust(Duration.minutes(1))
        const [held] = yield* t.setUp(claimDueEnrolments(1, worker.leaseMs))
        expect(held?.workspaceId).toBe(s.workspaceId)
        yield* TestClock.adjust(Duration.millis(worker.leaseMs))
        yield* drain(t)
        if (held !== undefined) yield* t.setUp(sendDueStep(held))
        expect((yield* enrolmentsOf(t, s.workspaceId)).filter((e) => e.next_step === 1)).toHaveLength(people.length)
        const afterFirst = yield* mailsOf(t, s.workspaceId)
        expect(afterFirst).toHaveLength(people.length)
        expect(new Set(afterFirst.map((m) => m.recipient)).size).toBe(people.length)

        // Two loops, as two server processes on one database.
        const core = yield* t.setUp(Effect.context<Layer.Layer.Success<ReturnType<typeof testCoreLayer>>>())
        for (const _ of [1, 2]) {
          yield* Effect.forkScoped(Effect.provide(runSequenceWorker({ ...worker, idleMs: 1_000 }), core))
        }
        yield* TestClock.adjust(Duration.minutes(2))
        const all = Effect.map(mailsOf(t, s.workspaceId), (mails) => mails.length >= 2 * people.length)
        yield* eventually(Effect.zipRight(TestClock.adjust(Duration.seconds(1)), all))
        const completed = Effect.map(enrolmentsOf(t, s.workspaceId), (rows) =>
          rows.every((row) => row.state === "completed")
        )
        yield* eventually(Effect.zipRight(TestClock.adjust(Duration.seconds(1)), completed))
        const mails = yield* mailsOf(t, s.workspaceId)
        expect(mails).toHaveLength(2 * people.length)
        const sent = mails.map((m) => `${m.recipient} ${m.subject}`)
        expect(new Set(sent).size).toBe(sent.length)
        for (const email of people) {
          expect(mails.filter((m) => m.recipient === email).map((m) => m.subject)).toEqual(["One", "Two"])
        }
      }).pipe(Effect.provide(TestContext.TestContext))
    )

    it.effect("GET /email-sequences pages newest first with the documented rows", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const product = yield* t.liveProduct(s)
        const made: Array<string> = []
        for (const name of ["A", "B", "C"]) {
          made.push(String((yield* createSequence(t, s.token, { ...twoSteps, name, products: [product] })).id))
        }
        const first = yield* send("GET", "/email-sequences?limit=2")
        expect(first.status).toBe(200)
        expect(first.body).toMatchObject({ ok: true, has_more: true })
        const rows = (first.body.data as Array<unknown>).map((row) =>
          Schema.decodeUnknownSync(EmailSequenceRow, { onExcessProperty: "error" })(row)
        )
        expect(rows).toHaveLength(2)
        expect(rows[0]).toMatchObject({
          state: "active",
          starts_when: { tags: [], products: [product] },
          steps: [
            { delay_minutes: 10, subject: "Welcome aboard" },
            { delay_minutes: 60, subject: "Your first lesson" }
          ],
          enrolments: { active: 0, completed: 0, stopped: 0 }
        })
        const second = yield* send("GET", `/email-sequences?limit=2&starting_after=${String(first.body.next_cursor)}`)
        expect(second.body).toMatchObject({ ok: true, has_more: false })
        const ids = [...rows, ...(second.body.data as Array<Row>)].map((row) => row.id)
        expect(ids).toHaveLength(3)
        expect([...ids].sort()).toEqual([...made].sort())
        // Newest first: each page's created_at never rises.
        const times = [...rows, ...(second.body.data as Array<Row>)].map((row) => Date.parse(String(row.created_at)))
        expect([...times].sort((a, b) => b - a)).toEqual(times)

        expect((yield* send("GET", "/email-sequences?limit=0")).status).toBe(400)
        expect((yield* send("GET", "/email-sequences?colour=red")).status).toBe(400)
        const other = yield* t.seller()
        expect((yield* caller(t, other.token)("GET", "/email-sequences")).body.data).toEqual([])
      })
    )
  }
)
