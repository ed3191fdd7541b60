/**
 * A visitor signs up in a real browser (Debian's Chromium through playwright-core) on a store with double opt-in:
 * the confirmation goes out over SMTP to a loopback server (the real mail worker and nodemailer), the visitor opens
 * its link, and the person is on the email list, in the New Email Signup feed, and in a `lead.created` delivery of the
 * store's webhook. The pages are screenshotted as `signup-*.png`.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { DEFAULT_MAIL_WORKER, MailTransport, runDueMail } from "@svc/core/mail"
import { StoreSetup } from "@svc/core/store"
import { Effect, Layer } from "effect"
import { chromiumOnMachine, launchChromium, screenshot } from "../oauth/browser-support.js"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { skipWithout } from "../support/external-tool.js"
import { LoopbackSmtp, loopbackSmtpLayer } from "../support/smtp.js"

const withoutChromium = skipWithout("the sign-up browser test", chromiumOnMachine)

describe.skipIf(withoutChromium)(`a visitor signs up in Chromium (${engineName})`, () => {
  layer(Layer.merge(TestApp.layer, loopbackSmtpLayer), { excludeTestServices: true, timeout: "180 seconds" })((it) => {
    it.scoped("on the store's page, confirms by the emailed link, and is on the list with lead.created", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const smtp = yield* LoopbackSmtp
        const transport = yield* MailTransport
        const user = yield* app.signUp()
        yield* app.setUp(
          Effect.flatMap(StoreSetup, (setup) => setup.set(user.workspace.id, { emailDoubleOptIn: true }))
        )
        const storeApi = (method: string, path: string, body?: unknown) =>
          Effect.promise(async () => {
            const response = await fetch(`${app.url}/store-app/v1${path}`, {
              method,
              headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
              ...(body === undefined ? {} : { body: JSON.stringify(body) })
            })
            return (await response.json()) as Record<string, unknown>
          })
        const hook = yield* storeApi("POST", "/webhooks", {
          url: "https://hooks.example.com/leads",
          events: ["lead.created"]
        })
        expect(hook.ok).toBe(true)

        const browser = yield* launchChromium
        const context = yield* Effect.acquireRelease(
          Effect.promise(() => browser.newContext({ viewport: { width: 1000, height: 900 } })),
          (c) => Effect.promise(() => c.close())
        )
        const page = yield* Effect.promise(() => context.newPage())
        page.setDefaultTimeout(20_000)
        const email = "visitor@example.org"
        yield* Effect.promise(async () => {
          const opened = await page.goto(`${app.url}/s/${user.store.handle}`)
          expect(opened?.status()).toBe(200)
          await page.getByLabel("Email", { exact: true }).fill(email)
          await page.getByLabel("Name (optional)").fill("Vera")
          await page.getByLabel(/I agree to receive emails/).check()
          await screenshot(page, "signup-form")
          await page.getByRole("button", { name: "Sign up" }).click()
          await page.getByRole("heading", { name: "Check your inbox" }).waitFor()
          await screenshot(page, "signup-check-inbox")
        })

        // The mail worker sends the confirmation over SMTP; the link comes from what the server received.
        yield* app.setUp(
          runDueMail({ ...DEFAULT_MAIL_WORKER, publicBase: app.url }).pipe(
            Effect.provideService(MailTransport, transport)
          )
        )
        const confirmation = smtp.received.find((mail) => mail.to.includes(email))
        expect(confirmation?.subject).toContain("Confirm your subscription")
        const link = /https?:\/\/\S+\/confirm\/\S+/.exec(confirmation?.text ?? "")?.[0] ?? ""
        expect(link).not.toBe("")
        yield* Effect.promise(async () => {
          const confirmed = await page.goto(link)
          expect(confirmed?.status()).toBe(200)
          await page.getByRole("heading", { name: "You are subscribed" }).waitFor()
          await screenshot(page, "signup-confirmed")
        })

        const contact = yield* storeApi("GET", `/email-contacts/${email}`)
        expect(contact).toMatchObject({
          ok: true,
          contact: { email, name: "Vera", status: "subscribed", source: "signup" }
        })
        const feed = yield* storeApi("GET", "/email-signups/recent")
        expect(feed).toMatchObject({ ok: true, signups: [{ email, name: "Vera", source: "signup_form" }] })
        const deliveries = yield* app.setUp(
          Effect.flatMap(SqlClient.SqlClient, (sql) =>
            Effect.orDie(sql<{ event_type: string }>`SELECT event_type FROM webhook_deliveries
              WHERE webhook_id = ${(hook.webhook as { id: string }).id}`)
          )
        )
        expect(deliveries.map((d) => d.event_type)).toEqual(["lead.created"])
      })
    )
  })
})
