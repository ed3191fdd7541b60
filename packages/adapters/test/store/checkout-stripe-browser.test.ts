/**
 * A buyer pays on Stripe in a real browser (Debian's Chromium through playwright-core): the checkout page without
 * scripts sends them on to Stripe's page (which a test machine may not reach: the browser's request shows where it
 * went), Stripe's signed event sells, and the page Stripe returns them to shows the order. The pages are
 * screenshotted as `checkout-stripe-*.png`.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { chromiumOnMachine, launchChromium, screenshot } from "../oauth/browser-support.js"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { skipWithout } from "../support/external-tool.js"
import { connected, eventOf, lastAttempt, sendEvent, stripeAtReplay } from "./checkout-stripe-support.js"

const withoutChromium = skipWithout("the Stripe checkout browser test", chromiumOnMachine)
const CS_PAY = "cs_test_a1Hq7Tz3kR9mW2xN5vB8cL4pY6sD0fG2hJ4kL6mN8pQ0rS2tU4vW6xY8z"
/** The server's public address as Stripe is told it; the browser's requests there go to the app under test. */
const PUBLIC = "http://svc.test"

describe.skipIf(withoutChromium)(`a buyer pays on Stripe in Chromium (${engineName})`, () => {
  layer(TestApp.layerWith({}, { ports: stripeAtReplay(PUBLIC) }), {
    excludeTestServices: true,
    timeout: "180 seconds"
  })((it) => {
    it.scoped("continues to Stripe's page with the code taken off, and comes back to the order", () =>
      Effect.gen(function* () {
        const s = yield* connected
        const id = yield* s.product({ title: "Harbour guide", price_cents: 1900 })
        yield* s.storeApi("POST", "/discount-codes", { product: id, kind: "percent", value: 20, code: "SAVE20" })

        const browser = yield* launchChromium
        const context = yield* Effect.acquireRelease(
          Effect.promise(() => browser.newContext({ viewport: { width: 1000, height: 1000 } })),
          (c) => Effect.promise(() => c.close())
        )
        // The public address Stripe is given is the app under test.
        yield* Effect.promise(() =>
          context.route(`${PUBLIC}/**`, (route) =>
            route.continue({ url: route.request().url().replace(PUBLIC, s.app.url) })
          )
        )
        const page = yield* Effect.promise(() => context.newPage())
        page.setDefaultTimeout(20_000)

        yield* Effect.promise(async () => {
          const opened = await page.goto(`${s.app.url}/c/${id}?code=SAVE20&utm_source=newsletter`)
          expect(opened?.status()).toBe(200)
          await page.getByText("15.20 USD, paid once").waitFor()
          expect(await page.getByLabel("Card number").count()).toBe(0)
          await page.getByLabel("Email", { exact: true }).fill("buyer@example.org")
          await screenshot(page, "checkout-stripe-form")
        })
        // The browser follows the 303 to Stripe's page (which a test machine may not reach: the request shows where
        // it went either way).
        const stripePage = yield* Effect.promise(async () => {
          const leaving = page.waitForRequest((r) => r.url().startsWith("https://checkout.stripe.com/"))
          await page.getByRole("button", { name: "Continue to payment" }).click()
          return (await leaving).url()
        })
        const { form, attempt } = yield* lastAttempt()
        const successUrl = String(form?.get("success_url") ?? "")
        expect(successUrl).toBe(`${PUBLIC}/c/${id}/done?attempt=${attempt}`)
        expect(stripePage).toBe(`https://checkout.stripe.com/c/pay/${CS_PAY}`)
        expect(form?.get("line_items[0][price_data][unit_amount]")).toBe("1520")

        // Stripe's event lands, then the buyer follows Stripe back.
        const completed = eventOf("checkout.session.completed-payment", (o) => {
          o.id = CS_PAY
          o.client_reference_id = attempt
          o.amount_total = 1520
        })
        expect((yield* sendEvent(s, completed)).body).toMatchObject({ result: "applied" })
        yield* Effect.promise(async () => {
          await page.goto(successUrl)
          await page.getByRole("heading", { name: "Thank you" }).waitFor()
          await page.getByText("You now have access to Harbour guide").waitFor()
          await screenshot(page, "checkout-stripe-done")
        })
        expect(yield* s.sales).toMatchObject([
          {
            buyer_email: "buyer@example.org",
            amount_cents: 1520,
            source: "svc_checkout",
            test: false,
            discount_code: "SAVE20",
            utm_source: "newsletter"
          }
        ])
        expect(yield* s.events("purchase.created")).toHaveLength(1)
      })
    )
  })
})
