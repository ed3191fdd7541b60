/**
 * The pages of mail (issue 28 §5): the signed unsubscribe link (`/u/<token>`: a page with a CSRF-protected button, and
 * the one-click POST of RFC 8058), which a forged or altered token cannot use, and the owner's outbox at
 * `/settings/outbox`, a development mail catcher that shows each owner their own mail only.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Mailer, sequenceStepEmail, unsubscribeToken } from "@svc/core/mail"
import { resolveStoreCaller, StoreEmailList } from "@svc/core/store"
import { Effect, Encoding, TestClock, TestContext } from "effect"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { Browser, formFields, TEST_PASSWORD } from "../oauth/support.js"

let counter = 0
const fresh = (name: string) => `${name}-${++counter}@example.org`

/** A seller with `email` subscribed on its list, and the token of that person's unsubscribe link. */
const listed = (email: string) =>
  Effect.gen(function* () {
    const app = yield* TestApp
    const user = yield* app.signUp()
    return yield* app.setUp(
      Effect.gen(function* () {
        const caller = yield* resolveStoreCaller(user.principal, true)
        const list = yield* StoreEmailList
        yield* list.add(caller, { email })
        const token = yield* unsubscribeToken({ workspaceId: user.workspace.id, email })
        const status = app.setUp(Effect.map(list.get(caller, email), (found) => found.status))
        return { app, user, token, status }
      })
    )
  })

const post = (url: string, body: string | FormData, contentType?: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      redirect: "manual",
      ...(contentType === undefined ? {} : { headers: { "content-type": contentType } }),
      body
    })
    return { status: response.status, text: await response.text() }
  })

layer(TestApp.layer, { excludeTestServices: true, timeout: "120 seconds" })(`mail pages on ${engineName}`, (it) => {
  describe("unsubscribe links", () => {
    it.effect("open a page without scripts or framing whose one button unsubscribes, once per form token", () =>
      Effect.gen(function* () {
        const email = fresh("reader")
        const { app, token, status } = yield* listed(email)
        const browser = new Browser(app.url)
        const link = `${app.url}/u/${token}`
        const page = yield* Effect.promise(() => browser.get(link))
        expect(page.response.status).toBe(200)
        expect(page.response.headers.get("x-frame-options")).toBe("DENY")
        expect(page.response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
        expect(page.response.headers.get("content-security-policy")).not.toContain("script-src")
        expect(page.text).not.toContain("<script")
        expect(page.text).toContain(email)
        // Opening the page changes nothing: mail scanners open links.
        expect(yield* status).toBe("subscribed")

        const fields = formFields(page.text, `/u/${token}`)
        expect(fields.csrf).toBeTruthy()
        const done = yield* Effect.promise(() => browser.post(link, fields))
        expect(done.response.status).toBe(200)
        expect(done.text).toContain("You are unsubscribed")
        expect(yield* status).toBe("unsubscribed")
        // The form token is single-use; a form posted from another site is refused.
        expect((yield* Effect.promise(() => browser.post(link, fields))).response.status).toBe(403)
        const again = yield* Effect.promise(() => browser.get(link))
        const fromElsewhere = yield* Effect.promise(() =>
          browser.post(link, formFields(again.text, `/u/${token}`), "https://evil.example")
        )
        expect(fromElsewhere.response.status).toBe(403)
      })
    )

    it.effect("a form post without the page's token unsubscribes nobody", () =>
      Effect.gen(function* () {
        const { app, token, status } = yield* listed(fresh("careful"))
        const refused = yield* post(`${app.url}/u/${token}`, "confirm=yes", "application/x-www-form-urlencoded")
        expect(refused.status).toBe(403)
        expect(yield* status).toBe("subscribed")
      })
    )

    it.effect("a mail client's one-click POST unsubscribes without a session, and repeating it changes nothing", () =>
      Effect.gen(function* () {
        const { app, token, status } = yield* listed(fresh("oneclick"))
        const url = `${app.url}/u/${token}`
        const first = yield* post(url, "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded")
        expect(first.status).toBe(200)
        expect(yield* status).toBe("unsubscribed")
        const again = yield* post(url, "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded")
        expect(again.status).toBe(200)
        expect(again.text).toContain("You are unsubscribed")
        expect(yield* status).toBe("unsubscribed")
      })
    )

    it.effect("the multipart one-click of RFC 8058 works too", () =>
      Effect.gen(function* () {
        const { app, token, status } = yield* listed(fresh("multipart"))
        const form = new FormData()
        form.set("List-Unsubscribe", "One-Click")
        expect((yield* post(`${app.url}/u/${token}`, form)).status).toBe(200)
        expect(yield* status).toBe("unsubscribed")
      })
    )

    it.effect("a forged or altered token does nothing", () =>
      Effect.gen(function* () {
        const email = fresh("target")
        const { app, user, token, status } = yield* listed(email)
        const [payload = "", signature = ""] = token.split(".")
        const otherSignature = `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`
        const forgedPayload = Encoding.encodeBase64Url(`${user.workspace.id}\n${fresh("someone")}`)
        const bad = [
          `${payload}.${otherSignature}`,
          `${forgedPayload}.${signature}`,
          `${payload}A.${signature}`,
          payload,
          `${payload}.${signature}.${signature}`,
          "not-a-token"
        ]
        for (const forged of bad) {
          const url = `${app.url}/u/${forged}`
          const shown = yield* Effect.promise(() => fetch(url))
          expect(shown.status).toBe(404)
          expect(yield* Effect.promise(() => shown.text())).toContain("not valid")
          expect((yield* post(url, "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded")).status).toBe(404)
        }
        expect(yield* status).toBe("subscribed")
        // The genuine link still works.
        const genuine = yield* post(
          `${app.url}/u/${token}`,
          "List-Unsubscribe=One-Click",
          "application/x-www-form-urlencoded"
        )
        expect(genuine.status).toBe(200)
        expect(yield* status).toBe("unsubscribed")
      })
    )
  })

  describe("the outbox page", () => {
    it.effect("shows the signed-in owner their mail, newest first and paged, and nobody else's", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const owner = yield* app.signUp()
        const other = yield* app.signUp()
        const reader = fresh("reader")
        yield* app.setUp(
          Effect.gen(function* () {
            const mailer = yield* Mailer
            // A second apart, so "newest first" has one answer (messages of one millisecond have none).
            const base = Date.now() - 3_600_000
            const at =
              (seconds: number) =>
              <A>(effect: Effect.Effect<A>) =>
                Effect.zipRight(TestClock.setTime(base + seconds * 1_000), effect).pipe(
                  Effect.provide(TestContext.TestContext)
                )
            for (let i = 1; i <= 27; i++) {
              yield* at(i)(
                mailer.send({
                  workspaceId: owner.workspace.id,
                  to: fresh("buyer"),
                  kind: "test.notice",
                  subject: `Notice number ${i}`,
                  text: `Body of notice ${i}`
                })
              )
            }
            yield* at(28)(
              mailer.send({
                workspaceId: owner.workspace.id,
                to: reader,
                toList: true,
                ...sequenceStepEmail({ subject: "Lesson one", body: "Read this first." })
              })
            )
            yield* mailer.send({
              workspaceId: other.workspace.id,
              to: fresh("theirs"),
              kind: "test.notice",
              subject: "Someone else's secret",
              text: "Not for the owner"
            })
          })
        )

        const browser = new Browser(app.url)
        const anonymous = yield* Effect.promise(() => browser.get(`${app.url}/settings/outbox`))
        expect(anonymous.response.status).toBe(303)
        expect(anonymous.response.headers.get("location")).toBe(`${app.url}/oauth/sign-in`)

        yield* Effect.promise(async () => {
          const signInPage = await browser.get(`${app.url}/oauth/sign-in`)
          const signedIn = await browser.post(`${app.url}/oauth/sign-in`, {
            ...formFields(signInPage.text, "/oauth/sign-in"),
            email: owner.account.email,
            password: TEST_PASSWORD
          })
          expect(signedIn.response.status).toBe(303)
        })
        // The settings page links to it.
        const settings = yield* Effect.promise(() => browser.get(`${app.url}/settings`))
        expect(settings.text).toContain(`href="${app.url}/settings/outbox"`)
        const first = yield* Effect.promise(() => browser.get(`${app.url}/settings/outbox`))
        expect(first.response.status).toBe(200)
        expect(first.response.headers.get("x-frame-options")).toBe("DENY")
        expect(first.text).toContain("development mail catcher")
        expect(first.text).not.toContain("Someone else")
        // Newest first: the list mail, with its unsubscribe footer as it would go out, then notice 27 down.
        const subjects = [...first.text.matchAll(/<h2>([^<]+)<\/h2>/g)].map((m) => m[1])
        expect(subjects.slice(0, 3)).toEqual(["Lesson one", "Notice number 27", "Notice number 26"])
        expect(subjects).toHaveLength(25)
        expect(first.text).toContain(reader)
        expect(first.text).toContain("sequence.step")
        expect(first.text).toContain("pending")
        expect(first.text).toMatch(new RegExp(`Read this first\\.[\\s\\S]*Unsubscribe: ${app.url}/u/[A-Za-z0-9_-]+\\.`))

        const older = /href="([^"]*\/settings\/outbox\?cursor=[^"]+)"/.exec(first.text)?.[1] ?? ""
        expect(older).not.toBe("")
        const second = yield* Effect.promise(() =>
          browser.get(older.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))))
        )
        const rest = [...second.text.matchAll(/<h2>([^<]+)<\/h2>/g)].map((m) => m[1])
        expect(rest).toEqual(["Notice number 3", "Notice number 2", "Notice number 1"])
        expect(second.text).not.toContain("Older messages")
      })
    )
  })
})
