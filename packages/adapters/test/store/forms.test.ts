/**
 * Forms and applications: svc_manage_forms, responses checked against the questions, and the store API's quizzes,
 * applications, accept and decline (tags, product, decision email) and the Form Completed feed, on the test database.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import {
  ApplicationRow,
  DecisionAnswer,
  EmailContactsRepo,
  FormCompletedRow,
  QuizRow,
  StoreForms,
  StoreSetup
} from "@svc/core/store"
import { Effect, Either, Option } from "effect"
import { engineName } from "../support/database.js"
import { exactly, caller, StoreTest } from "./support.js"

type Harness = StoreTest["Type"]
type Row = Record<string, unknown>

const QUESTIONS = [
  { label: "What do you do?", kind: "paragraph", required: true },
  { label: "Level", kind: "choice", choices: ["beginner", "advanced"], required: true },
  { label: "Website" }
]

/** A person fills in the form (the public page calls the same service). */
const submit = (t: Harness, workspaceId: string, formId: string, input: Parameters<StoreForms["submit"]>[2]) =>
  t.setUp(Effect.flatMap(StoreForms, (forms) => Effect.either(forms.submit(workspaceId, formId, input))))

const mails = (t: Harness, workspaceId: string) =>
  t.setUp(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ recipient: string; kind: string; subject: string; body: string }>`
        SELECT recipient, kind, subject, body FROM mail_outbox WHERE workspace_id = ${workspaceId}
        AND kind LIKE 'form.%' ORDER BY created_at, id`
    ).pipe(Effect.orDie)
  )

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(`store forms (${engineName})`, (it) => {
  it.effect("svc_manage_forms creates, reads, updates and deletes forms, refusing bad questions by field", () =>
    Effect.gen(function* () {
      const t = yield* StoreTest
      const s = yield* t.seller()
      const product = yield* t.liveProduct(s)
      const created = yield* t.tool(s.token, "svc_manage_forms", {
        action: "create",
        title: " Coaching application ",
        review: true,
        questions: QUESTIONS,
        acceptTags: ["Accepted", "coaching"],
        declineTags: ["Declined"],
        acceptProduct: product,
        acceptNote: "We start on Monday."
      })
      expect(created.ok).toBe(true)
      const form = exactly(QuizRow, created.form)
      expect(form).toMatchObject({
        title: "Coaching application",
        review: true,
        accept_product_id: product,
        decision_emails: true,
        accept_note: "We start on Monday.",
        decline_note: null,
        responses: 0,
        pending: 0
      })
      expect(form.id).toMatch(/^frm_/)
      expect(form.questions.map((q) => [q.id, q.kind, q.required])).toEqual([
        ["q1", "paragraph", true],
        ["q2", "choice", true],
        ["q3", "text", false]
      ])
      expect(form.accept_tags.map((tag) => tag.name)).toEqual(["Accepted", "coaching"])

      // An edit keeps the ids it is given; a new question gets the next id, never a removed one's.
      const updated = yield* t.tool(s.token, "svc_manage_forms", {
        action: "update",
        formId: form.id,
        questions: [{ id: "q2", label: "Level", kind: "choice", choices: ["beginner", "advanced"] }, { label: "Goal" }]
      })
      expect((updated.form as Row).questions).toMatchObject([{ id: "q2" }, { id: "q3", label: "Goal" }])
      expect((updated.form as Row).title).toBe("Coaching application")

      const listed = yield* t.tool(s.token, "svc_manage_forms", { action: "list" })
      expect((listed.forms as ReadonlyArray<Row>).map((f) => f.id)).toEqual([form.id])

      const refusals: ReadonlyArray<[Record<string, unknown>, string]> = [
        [{ action: "create", title: "" }, "title"],
        [{ action: "create" }, "title"],
        [
          { action: "create", title: "x", questions: [{ label: "Pick", kind: "choice", choices: ["one"] }] },
          "questions.0.choices"
        ],
        [{ action: "create", title: "x", questions: [{ label: "  " }] }, "questions.0.label"],
        [{ action: "create", title: "x", questions: [{ label: "a", choices: ["b", "c"] }] }, "questions.0.choices"],
        [
          {
            action: "create",
            title: "x",
            questions: [
              { id: "q1", label: "a" },
              { id: "q1", label: "b" }
            ]
          },
          "questions.1.id"
        ],
        [{ action: "create", title: "x", acceptProduct: "prod_nope" }, "acceptProduct"],
        [{ action: "create", title: "x", acceptNote: "n".repeat(2_001) }, "acceptNote"],
        [{ action: "get" }, "formId"],
        [{ action: "list", title: "x" }, "title"],
        [{ action: "accept", formId: form.id }, "application"],
        [{ action: "accept", formId: form.id, application: "not@an address" }, "application"]
      ]
      for (const [args, path] of refusals) {
        const refused = yield* t.tool(s.token, "svc_manage_forms", args)
        expect(refused, JSON.stringify(args)).toMatchObject({ ok: false, status: "invalid", errors: [{ path }] })
      }
      expect(yield* t.tool(s.token, "svc_manage_forms", { action: "get", formId: "frm_nope" })).toMatchObject({
        ok: false,
        status: "not-found"
      })

      expect(yield* t.tool(s.token, "svc_manage_forms", { action: "delete", formId: form.id })).toMatchObject({
        ok: true,
        deleted: form.id
      })
      expect((yield* t.tool(s.token, "svc_manage_forms", { action: "list" })).forms).toEqual([])
    })
  )

  it.effect("checks each answer against its question and names every refused field", () =>
    Effect.gen(function* () {
      const t = yield* StoreTest
      const s = yield* t.seller()
      const created = yield* t.tool(s.token, "svc_manage_forms", {
        action: "create",
        title: "Survey",
        questions: [...QUESTIONS, { label: "Email of a friend", kind: "email" }]
      })
      const formId = (created.form as Row).id as string
      const refused = yield* submit(t, s.workspaceId, formId, {
        email: "not an address",
        answers: { q1: "x".repeat(5_001), q2: "expert", q4: "nobody", q9: "?" }
      })
      expect(Either.isLeft(refused)).toBe(true)
      const error = Either.getLeft(refused).pipe(Option.getOrThrow)
      expect(error._tag).toBe("InvalidInput")
      expect(error._tag === "InvalidInput" && error.errors.map((e) => e.path)).toEqual(["email"])

      const answers = yield* submit(t, s.workspaceId, formId, {
        email: "ann@example.com",
        answers: { q1: "x".repeat(5_001), q2: "expert", q4: "nobody", q9: "?" }
      })
      const problems = Either.getLeft(answers).pipe(Option.getOrThrow)
      expect(problems._tag === "InvalidInput" && problems.errors.map((e) => e.path)).toEqual([
        "answers.q1",
        "answers.q2",
        "answers.q4",
        "answers.q9"
      ])
      const missing = Either.getLeft(yield* submit(t, s.workspaceId, formId, { email: "ann@example.com", answers: {} }))
      expect(Option.getOrThrow(missing)).toMatchObject({
        _tag: "InvalidInput",
        errors: [{ path: "answers.q1" }, { path: "answers.q2" }]
      })

      // A form without review: a response, never an application; the Form Completed feed and the event show it.
      const sent = yield* submit(t, s.workspaceId, formId, {
        email: " Ann@Example.com ",
        name: "Ann",
        answers: { q1: "I teach yoga", q2: "advanced", q3: "" }
      })
      const response = Either.getOrThrow(sent)
      expect(response).toMatchObject({ email: "ann@example.com", name: "Ann", status: null })
      const send = caller(t, s.token)
      const feed = yield* send("GET", `/quiz-responses/recent?quiz=${formId}`)
      expect(feed.status).toBe(200)
      const rows = (feed.body.responses as ReadonlyArray<unknown>).map((row) => exactly(FormCompletedRow, row))
      expect(rows).toMatchObject([
        {
          response_id: response.id,
          quiz_id: formId,
          quiz_title: "Survey",
          email: "ann@example.com",
          name: "Ann",
          answers: [
            { question: "What do you do?", answer: "I teach yoga" },
            { question: "Level", answer: "advanced" }
          ]
        }
      ])
      expect((yield* send("GET", "/quiz-responses/recent?quiz=frm_other")).body.responses).toEqual([])
      const events = (yield* t.events(s.workspaceId)).filter((e) => e.type === "form.completed")
      expect(events).toHaveLength(1)
      // Not a review form: no applications to list.
      const applications = yield* send("GET", `/forms/${formId}/applications?status=all`)
      expect(applications.body).toMatchObject({ ok: true, data: [], has_more: false })
    })
  )

  it.effect("accepts and declines applications through the store API: tags, product, decision emails", () =>
    Effect.gen(function* () {
      const t = yield* StoreTest
      const s = yield* t.seller()
      const send = caller(t, s.token)
      const product = yield* t.liveProduct(s)
      const created = yield* t.tool(s.token, "svc_manage_forms", {
        action: "create",
        title: "Mastermind",
        review: true,
        questions: QUESTIONS,
        acceptTags: ["Accepted"],
        declineTags: ["Not this time"],
        acceptProduct: product,
        acceptNote: "Welcome aboard."
      })
      const formId = (created.form as Row).id as string
      const apply = (email: string) =>
        Effect.map(
          submit(t, s.workspaceId, formId, { email, answers: { q1: "Coach", q2: "beginner" } }),
          Either.getOrThrow
        )
      const ann = yield* apply("ann@example.com")
      yield* apply("bob@example.com")
      const bobAgain = yield* apply("bob@example.com")
      yield* apply("cid@example.com")

      const quizzes = yield* send("GET", "/quizzes")
      expect(quizzes.status).toBe(200)
      expect(exactly(QuizRow, (quizzes.body.data as ReadonlyArray<unknown>)[0])).toMatchObject({
        id: formId,
        responses: 4,
        pending: 4
      })
      const pending = yield* send("GET", `/forms/${formId}/applications?limit=3`)
      expect(pending.body).toMatchObject({ ok: true, has_more: true })
      const firstPage = (pending.body.data as ReadonlyArray<unknown>).map((row) => exactly(ApplicationRow, row))
      expect(firstPage.map((a) => a.email)).toEqual(["cid@example.com", "bob@example.com", "bob@example.com"])
      expect(firstPage.every((a) => a.status === "pending")).toBe(true)
      const rest = yield* send(
        "GET",
        `/forms/${formId}/applications?limit=3&starting_after=${pending.body.next_cursor as string}`
      )
      expect((rest.body.data as ReadonlyArray<Row>).map((a) => a.id)).toEqual([ann.id])

      // By email: the newest application from that address. Tags, free access and the accept email follow.
      const accepted = yield* send("POST", `/forms/${formId}/applications/accept`, { email: "Bob@Example.com" })
      expect(accepted.status).toBe(200)
      const decision = exactly(DecisionAnswer, accepted.body)
      expect(decision).toMatchObject({ changed: true, email: "queued", access: "added" })
      expect(decision.application).toMatchObject({ id: bobAgain.id, status: "accepted" })
      expect(decision.tags_added.map((tag) => tag.name)).toEqual(["Accepted"])
      const customer = yield* send("GET", "/customers/bob@example.com")
      expect(JSON.stringify(customer.body)).toContain(product)
      // The same decision again changes nothing and sends nothing.
      const again = yield* send("POST", `/forms/${formId}/applications/accept`, { response_id: bobAgain.id })
      expect(again.body).toMatchObject({ ok: true, changed: false, email: "skipped", tags_added: [] })

      // The tool decides the same way: by response id here (already accepted, so nothing changes).
      const viaTool = yield* t.tool(s.token, "svc_manage_forms", { action: "accept", formId, application: bobAgain.id })
      expect(viaTool).toMatchObject({ ok: true, decision: { changed: false, email: "skipped" } })
      const listedByTool = yield* t.tool(s.token, "svc_manage_forms", {
        action: "applications",
        formId,
        status: "accepted"
      })
      expect((listedByTool.applications as ReadonlyArray<Row>).map((a) => a.id)).toEqual([bobAgain.id])

      // Declined by id without an email; then Ann's address bounced, so no decision email can reach her.
      const declined = yield* send("POST", `/forms/${formId}/applications/decline`, {
        response_id: ann.id,
        send_email: false
      })
      expect(declined.body).toMatchObject({ ok: true, changed: true, email: "skipped" })
      expect((declined.body.tags_added as ReadonlyArray<Row>).map((tag) => tag.name)).toEqual(["Not this time"])
      yield* send("POST", "/email-contacts", { email: "cid@example.com" })
      yield* t.setUp(
        Effect.gen(function* () {
          const repo = yield* EmailContactsRepo
          const contact = Option.getOrThrow(yield* repo.find(s.workspaceId, "cid@example.com"))
          yield* repo.update({ ...contact, status: "bounced", unsubscribedAt: new Date() })
        })
      )
      const bounced = yield* send("POST", `/forms/${formId}/applications/decline`, { email: "cid@example.com" })
      expect(bounced.body).toMatchObject({ changed: true, email: "no_email" })

      const mail = yield* mails(t, s.workspaceId)
      expect(mail).toHaveLength(1)
      expect(mail[0]).toMatchObject({ recipient: "bob@example.com", kind: "form.application_accepted" })
      expect(mail[0]?.body).toContain("Welcome aboard.")
      expect(mail[0]?.body).toContain("help@example.com")

      // Decision emails switched off, and a store with no support email to answer to.
      yield* t.tool(s.token, "svc_manage_forms", { action: "update", formId, decisionEmails: false })
      const off = yield* send("POST", `/forms/${formId}/applications/accept`, { email: "cid@example.com" })
      expect(off.body).toMatchObject({ changed: true, email: "off" })
      yield* t.tool(s.token, "svc_manage_forms", { action: "update", formId, decisionEmails: true })
      yield* t.setUp(Effect.flatMap(StoreSetup, (setup) => setup.set(s.workspaceId, { supportEmail: null })))
      const bobFirst = firstPage[2]
      const unset = yield* send("POST", `/forms/${formId}/applications/decline`, { response_id: bobFirst?.id })
      // A store without a support email still sends the decision, without the line naming where to reply.
      expect(unset.body).toMatchObject({ changed: true, email: "queued" })
      const declineMail = (yield* mails(t, s.workspaceId)).at(-1)
      expect(declineMail).toMatchObject({ recipient: "bob@example.com", kind: "form.application_declined" })
      expect(declineMail?.body).not.toContain("Questions? Write to")

      const byStatus = async (status: string) =>
        ((await t.call(s.token, "GET", `/forms/${formId}/applications?status=${status}`)).body.data as Array<Row>)
          .length
      expect(
        yield* Effect.promise(() => Promise.all(["pending", "accepted", "declined", "all"].map(byStatus)))
      ).toEqual([0, 2, 2, 4])

      // Refusals: a bad status filter, neither or both of response_id and email, unknown ids, a form without review.
      expect((yield* send("GET", `/forms/${formId}/applications?status=maybe`)).status).toBe(400)
      expect((yield* send("POST", `/forms/${formId}/applications/accept`, {})).status).toBe(422)
      expect(
        (yield* send("POST", `/forms/${formId}/applications/accept`, { response_id: ann.id, email: "a@b.co" })).status
      ).toBe(422)
      expect((yield* send("POST", `/forms/${formId}/applications/accept`, { response_id: "resp_nope" })).status).toBe(
        404
      )
      expect((yield* send("POST", "/forms/frm_nope/applications/accept", { response_id: ann.id })).status).toBe(404)
      const plain = yield* t.tool(s.token, "svc_manage_forms", { action: "create", title: "Plain" })
      const plainId = (plain.form as Row).id as string
      expect((yield* send("POST", `/forms/${plainId}/applications/accept`, { email: "a@b.co" })).status).toBe(409)
    })
  )
})
