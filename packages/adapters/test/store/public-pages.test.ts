/**
 * The stores' public pages (issue 28 §4) through the real app over HTTP with a cookie-keeping client: the store page,
 * email sign-ups (with and without double opt-in, `lead.created` once per address, the New Email Signup feed), the
 * hygiene of every form (same origin, single-use token, honeypot, rate limit, consent), and a form's page marking
 * refused answers.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { resolveStoreCaller, StoreForms, StoreSetup } from "@svc/core/store"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { Browser, formFields } from "../oauth/support.js"

let counter = 0
const fresh = (name: string) => `${name}-${++counter}@example.org`

const signupFields = (page: string, handle: string) => formFields(page, `/s/${handle}/signup`)

/** A seller with a store; `doubleOptIn` switches confirmation by email on. */
const seller = (options: { readonly doubleOptIn?: boolean } = {}) =>
  Effect.gen(function* () {
    const app = yield* TestApp
    const user = yield* app.signUp()
    if (options.doubleOptIn === true) {
      yield* app.setUp(Effect.flatMap(StoreSetup, (setup) => setup.set(user.workspace.id, { emailDoubleOptIn: true })))
    }
    const handle = user.store.handle
    const storeApi = (path: string) =>
      Effect.promise(async () => {
        const response = await fetch(`${app.url}/store-app/v1${path}`, {
          headers: { authorization: `Bearer ${user.token}` }
        })
        return (await response.json()) as Record<string, unknown>
      })
    const rows = <A>(query: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
      app.setUp(Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.orDie(query(sql))))
    const contacts = rows(
      (sql) =>
        sql<{ email: string; status: string; source: string }>`SELECT email, status, source FROM store_email_contacts
        WHERE workspace_id = ${user.workspace.id} ORDER BY created_at`
    )
    const leads = rows(
      (sql) =>
        sql<{
          data: unknown
        }>`SELECT data FROM events WHERE workspace_id = ${user.workspace.id} AND type = 'lead.created'`
    )
    const mail = rows(
      (sql) =>
        sql<{ recipient: string; kind: string; body: string }>`SELECT recipient, kind, body FROM mail_outbox
        WHERE workspace_id = ${user.workspace.id} ORDER BY created_at`
    )
    return { app, user, handle, page: `${app.url}/s/${handle}`, storeApi, contacts, leads, mail }
  })

/** Opens the store page and signs up with `fields` (the page's own token and the visitor's typing). */
const signUp = (browser: Browser, page: string, handle: string, fields: Record<string, string>) =>
  Effect.promise(async () => {
    const opened = await browser.get(page)
    return browser.post(`${page}/signup`, { ...signupFields(opened.text, handle), ...fields })
  })

layer(TestApp.layer, { excludeTestServices: true, timeout: "120 seconds" })(
  `the stores' public pages on ${engineName}`,
  (it) => {
    it.effect("show the store without scripts or framing, and sign a visitor up once, with lead.created", () =>
      Effect.gen(function* () {
        const s = yield* seller()
        const browser = new Browser(s.app.url)
        const opened = yield* Effect.promise(() => browser.get(s.page))
        expect(opened.response.status).toBe(200)
        expect(opened.response.headers.get("x-frame-options")).toBe("DENY")
        expect(opened.text).not.toContain("<script")
        expect(opened.text).toContain(s.user.store.name.replaceAll("'", "&#39;"))
        expect(opened.text).toContain("I agree to receive emails")
        expect((yield* Effect.promise(() => browser.get(`${s.app.url}/s/no-such-store`))).response.status).toBe(404)

        const email = fresh("ann")
        const done = yield* signUp(browser, s.page, s.handle, {
          email: ` ${email.toUpperCase()} `,
          name: "Ann",
          consent: "yes"
        })
        expect(done.response.status).toBe(200)
        expect(done.text).toContain("You are on the list")
        expect(yield* s.contacts).toEqual([{ email, status: "subscribed", source: "signup" }])
        // Again: still one contact, still one lead.
        yield* signUp(browser, s.page, s.handle, { email, consent: "yes" })
        expect(yield* s.contacts).toHaveLength(1)
        expect(yield* s.leads).toHaveLength(1)
        const feed = yield* s.storeApi("/email-signups/recent")
        expect(feed).toMatchObject({
          ok: true,
          signups: [{ email, name: "Ann", marketing_consent: true, source: "signup_form" }]
        })
      })
    )

    it.effect("20 parallel sign-ups of one address make one contact and one lead.created", () =>
      Effect.gen(function* () {
        const s = yield* seller()
        const email = fresh("rush")
        const answers = yield* Effect.forEach(
          Array.from({ length: 20 }, () => new Browser(s.app.url)),
          (browser) => signUp(browser, s.page, s.handle, { email, consent: "yes" }),
          { concurrency: "unbounded" }
        )
        expect(answers.map((a) => a.response.status)).toEqual(Array.from({ length: 20 }, () => 200))
        expect(yield* s.contacts).toHaveLength(1)
        expect(yield* s.leads).toHaveLength(1)
      })
    )

    it.effect("refuse a post without consent, from another site, without its token, or past the rate limit", () =>
      Effect.gen(function* () {
        const s = yield* seller()
        const browser = new Browser(s.app.url)
        const noConsent = yield* signUp(browser, s.page, s.handle, { email: fresh("shy") })
        expect(noConsent.response.status).toBe(422)
        expect(noConsent.text).toContain('aria-invalid="true"')
        const badEmail = yield* signUp(browser, s.page, s.handle, { email: "not an address", consent: "yes" })
        expect(badEmail.response.status).toBe(422)
        expect(badEmail.text).toContain('id="email-error"')
        const opened = yield* Effect.promise(() => browser.get(s.page))
        const fields = { ...signupFields(opened.text, s.handle), email: fresh("x"), consent: "yes" }
        const elsewhere = yield* Effect.promise(() => browser.post(`${s.page}/signup`, fields, "https://evil.example"))
        expect(elsewhere.response.status).toBe(403)
        const noToken = yield* Effect.promise(() =>
          browser.post(`${s.page}/signup`, { email: fresh("y"), consent: "yes" })
        )
        expect(noToken.response.status).toBe(403)
        // A bot fills the field no person sees: it is thanked, and nothing happens.
        const bot = yield* signUp(browser, s.page, s.handle, { email: fresh("bot"), consent: "yes", website: "x" })
        expect(bot.response.status).toBe(200)
        expect(yield* s.contacts).toEqual([])
        // One address posts at most 30 times in ten minutes (the posts above count too).
        const statuses = yield* Effect.forEach(Array.from({ length: 30 }), () =>
          Effect.map(
            signUp(browser, s.page, s.handle, { email: fresh("flood"), consent: "yes" }),
            (a) => a.response.status
          )
        )
        expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0)
      })
    )

    it.effect("with double opt-in, email a signed link first; the link adds the person, a forged one nothing", () =>
      Effect.gen(function* () {
        const s = yield* seller({ doubleOptIn: true })
        const browser = new Browser(s.app.url)
        const email = fresh("careful")
        const asked = yield* signUp(browser, s.page, s.handle, { email, consent: "yes" })
        expect(asked.text).toContain("Check your inbox")
        expect(yield* s.contacts).toEqual([])
        const [confirmation] = yield* s.mail
        expect(confirmation).toMatchObject({ recipient: email, kind: "list.confirm" })
        const link = /https?:\/\/\S+\/confirm\/\S+/.exec(confirmation?.body ?? "")?.[0] ?? ""
        expect(link).toContain(`/s/${s.handle}/confirm/`)
        const forged = yield* Effect.promise(() => browser.get(`${link.slice(0, -3)}abc`))
        expect(forged.response.status).toBe(404)
        expect(yield* s.contacts).toEqual([])
        const confirmed = yield* Effect.promise(() => browser.get(link))
        expect(confirmed.response.status).toBe(200)
        expect(confirmed.text).toContain("You are subscribed")
        expect(yield* s.contacts).toEqual([{ email, status: "subscribed", source: "signup" }])
        expect(yield* s.leads).toHaveLength(1)
        // The link of one store does nothing on another's page.
        const other = yield* seller()
        const path = new URL(link).pathname.replace(`/s/${s.handle}/`, `/s/${other.handle}/`)
        expect((yield* Effect.promise(() => browser.get(`${s.app.url}${path}`))).response.status).toBe(404)
      })
    )

    it.effect("a form's page takes answers, and marks each refused one where it is", () =>
      Effect.gen(function* () {
        const s = yield* seller()
        const form = yield* s.app.setUp(
          Effect.gen(function* () {
            const forms = yield* StoreForms
            const caller = yield* resolveStoreCaller(s.user.principal, true)
            const created = yield* forms.create(caller, {
              title: "Apply",
              review: true,
              questions: [
                { label: "About you", kind: "paragraph", required: true },
                { label: "Level", kind: "choice", choices: ["new", "expert"] }
              ]
            })
            return created.form
          })
        )
        const browser = new Browser(s.app.url)
        const store = yield* Effect.promise(() => browser.get(s.page))
        expect(store.text).toContain(`/s/${s.handle}/forms/${form.id}`)
        const url = `${s.page}/forms/${form.id}`
        const opened = yield* Effect.promise(() => browser.get(url))
        expect(opened.response.status).toBe(200)
        expect(opened.text).toContain("About you")
        const refused = yield* Effect.promise(() =>
          browser.post(url, {
            ...formFields(opened.text, `/forms/${form.id}`),
            email: fresh("ap"),
            q1: "x".repeat(5_001),
            q2: "guru"
          })
        )
        expect(refused.response.status).toBe(422)
        expect(refused.text).toContain('id="answers.q1-error"')
        expect(refused.text).toContain('id="answers.q2-error"')
        const again = yield* Effect.promise(() => browser.get(url))
        const sent = yield* Effect.promise(() =>
          browser.post(url, {
            ...formFields(again.text, `/forms/${form.id}`),
            email: fresh("ap"),
            q1: "I teach.",
            q2: "new"
          })
        )
        expect(sent.response.status).toBe(200)
        expect(sent.text).toContain("Your answers were sent")
        const pending = yield* s.storeApi(`/forms/${form.id}/applications`)
        expect((pending.data as ReadonlyArray<unknown>).length).toBe(1)
        expect((yield* Effect.promise(() => browser.get(`${s.page}/forms/frm_nope`))).response.status).toBe(404)
      })
    )
  }
)
