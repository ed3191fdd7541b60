/**
 * A buyer leaves a review in a real browser (Debian's Chromium through playwright-core): a week after their purchase
 * they open the emailed link, choose the stars by their labels, write, allow quoting and send; the product's page then
 * shows the review with the rating, and the link refuses a second review. Screenshotted as `review-*.png`.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { runDueReviewRequests } from "@svc/core/store"
import { Effect } from "effect"
import { chromiumOnMachine, launchChromium, screenshot } from "../oauth/browser-support.js"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { skipWithout } from "../support/external-tool.js"
import { ManualClock } from "../support/predictable.js"
import { Buyer, checkoutSeller } from "./checkout-support.js"

const withoutChromium = skipWithout("the review browser test", chromiumOnMachine)
const clock = new ManualClock(Date.UTC(2026, 10, 2, 9, 0, 0))

describe.skipIf(withoutChromium)(`a buyer reviews in Chromium (${engineName})`, () => {
  layer(TestApp.layerWith({}, { clock }), { excludeTestServices: true, timeout: "180 seconds" })((it) => {
    it.scoped("the emailed link opens the form; the review shows on the product's page; the link works once", () =>
      Effect.gen(function* () {
        const { app, workspaceId, product } = yield* checkoutSeller
        const id = yield* product({ title: "Podcast course", price_cents: 3000 })
        const buyer = new Buyer(app.url)
        const checkout = `${app.url}/c/${id}`
        const opened = yield* Effect.promise(() => buyer.open(checkout))
        const sold = yield* Effect.promise(() =>
          buyer.post(opened.text, checkout, {
            card_number: "4242 4242 4242 4242",
            card_expiry: "12/34",
            card_cvc: "123",
            email: "gus@example.org",
            name: "Gus"
          })
        )
        yield* Effect.promise(() => buyer.close())
        expect(sold.status, sold.text).toBe(200)
        clock.advance(7 * 86_400_000 + 60_000)
        yield* app.setUp(runDueReviewRequests())
        const [mail] = yield* app.setUp(
          Effect.flatMap(SqlClient.SqlClient, (sql) =>
            Effect.orDie(sql<{ body: string }>`SELECT body FROM mail_outbox
              WHERE workspace_id = ${workspaceId} AND kind = 'store.review_request'`)
          )
        )
        const link = new URL(/\/r\/\S+/.exec(mail?.body ?? "")?.[0] ?? "/r/missing", app.url).href

        const browser = yield* launchChromium
        const context = yield* Effect.acquireRelease(
          Effect.promise(() => browser.newContext({ viewport: { width: 1000, height: 1100 } })),
          (c) => Effect.promise(() => c.close())
        )
        const page = yield* Effect.promise(() => context.newPage())
        page.setDefaultTimeout(20_000)
        yield* Effect.promise(async () => {
          expect((await page.goto(link))?.status()).toBe(200)
          await page.getByRole("heading", { name: "How is Podcast course?" }).waitFor()
          expect(await page.getByLabel("Your name as it may be shown (optional)").inputValue()).toBe("Gus")
          // Only spaces pass the browser's own check; the server asks for words and keeps the stars chosen.
          await page.getByLabel("4 out of 5").check()
          await page.getByLabel("Your review").fill("   ")
          await page.getByRole("button", { name: "Send my review" }).click()
          await page.getByRole("alert").filter({ hasText: "Write a few words about it." }).waitFor()
          expect(await page.getByLabel("4 out of 5").isChecked()).toBe(true)
          await page.getByLabel("Your review").fill("Clear steps; my first episode is out.")
          await page.getByLabel(/may quote my review/).check()
          await screenshot(page, "review-form")
          await page.getByRole("button", { name: "Send my review" }).click()
          await page.getByText("Your review of Podcast course is in.").waitFor()

          // The product's page shows it; the link refuses a second review.
          await page.goto(checkout)
          await page.getByText("4.0 out of 5 · 1 rating").waitFor()
          await page.getByText("Clear steps; my first episode is out.").waitFor()
          await screenshot(page, "review-shown")
          expect((await page.goto(link))?.status()).toBe(409)
          await page.getByText("This link was used already").waitFor()
        })
      })
    )
  })
})
