/**
 * A buyer pays in a real browser (Debian's Chromium through playwright-core): they open a discount code's link with a
 * campaign's parameters, pay with the test processor's card, and the sale carries the code and the campaign, the access
 * email is in the outbox and `purchase.created` is written once; a declined card shows why and sells nothing; a free
 * product is claimed with `how: free`. The pages are screenshotted as `checkout-*.png`.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { chromiumOnMachine, launchChromium, screenshot } from "../oauth/browser-support.js"
import { engineName } from "../support/database.js"
import { TestApp } from "../support/app.js"
import { skipWithout } from "../support/external-tool.js"
import { checkoutSeller } from "./checkout-support.js"

const withoutChromium = skipWithout("the checkout browser test", chromiumOnMachine)

/** A page of a fresh Chromium context, closed with the test's scope. */
const newPage = Effect.gen(function* () {
  const browser = yield* launchChromium
  const context = yield* Effect.acquireRelease(
    Effect.promise(() => browser.newContext({ viewport: { width: 1000, height: 1100 } })),
    (c) => Effect.promise(() => c.close())
  )
  const page = yield* Effect.promise(() => context.newPage())
  page.setDefaultTimeout(20_000)
  return page
})

describe.skipIf(withoutChromium)(`a buyer pays in Chromium (${engineName})`, () => {
  layer(TestApp.layer, { excludeTestServices: true, timeout: "180 seconds" })((it) => {
    it.scoped("with a 20 % code from a campaign's link; a declined card sells nothing; a free product is claimed", () =>
      Effect.gen(function* () {
        const { app, workspaceId, product, storeApi: callStoreApi, sales: saleRows } = yield* checkoutSeller
        const storeApi = (method: string, path: string, body?: unknown) =>
          Effect.map(callStoreApi(method, path, body), (answer) => answer.body)
        const rows = <A extends object>(
          query: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>
        ) => app.setUp(Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.orDie(query(sql))))

        const course = yield* product({ title: "Course", price_cents: 5000 })
        const free = yield* product({ title: "Starter kit", price_cents: 0 })
        const code = yield* storeApi("POST", "/discount-codes", { product: course, kind: "percent", value: 20 })
        const link = `${String(code.checkout_url)}&utm_source=newsletter&utm_campaign=fall`

        const page = yield* newPage
        const fillCard = async (number: string) => {
          await page.getByLabel("Card number").fill(number)
          await page.getByLabel("Expiry (MM/YY)").fill("12/34")
          await page.getByLabel("Security code").fill("123")
        }

        // A declined card first: the page says why, and nothing is sold.
        yield* Effect.promise(async () => {
          const opened = await page.goto(link)
          expect(opened?.status()).toBe(200)
          await page.getByText("Test mode.").waitFor()
          await page.getByText("40.00 USD, paid once").waitFor()
          await page.getByLabel("Email", { exact: true }).fill("buyer@example.org")
          await page.getByLabel("Name (optional)").fill("Bea")
          await fillCard("4000 0000 0000 0002")
          await page.getByRole("button", { name: "Pay" }).click()
          await page.getByRole("alert").filter({ hasText: "Your card was declined" }).waitFor()
          await screenshot(page, "checkout-declined")
        })
        expect(yield* saleRows).toEqual([])

        // The same page again (the code and the campaign kept), with the card that pays.
        yield* Effect.promise(async () => {
          await page.getByLabel("Email", { exact: true }).fill("buyer@example.org")
          await fillCard("4242 4242 4242 4242")
          await screenshot(page, "checkout-form")
          await page.getByRole("button", { name: "Pay" }).click()
          await page.getByRole("heading", { name: "Thank you" }).waitFor()
          await page.getByText("You now have access to Course").waitFor()
          await screenshot(page, "checkout-paid")
        })
        const sales = yield* storeApi("GET", "/sales")
        expect(sales.data).toMatchObject([
          {
            product_id: course,
            buyer_email: "buyer@example.org",
            buyer_name: "Bea",
            amount_cents: 4000,
            source: "svc_checkout",
            status: "paid",
            discount_code: code.code,
            utm_source: "newsletter",
            utm_campaign: "fall",
            test: true
          }
        ])
        const events = yield* rows(
          (sql) =>
            sql<{
              type: string
            }>`SELECT type FROM events WHERE workspace_id = ${workspaceId} AND type = 'purchase.created'`
        )
        expect(events).toHaveLength(1)
        const mail = yield* rows(
          (sql) => sql<{ recipient: string }>`SELECT recipient FROM mail_outbox WHERE workspace_id = ${workspaceId}`
        )
        expect(mail.map((m) => m.recipient)).toContain("buyer@example.org")

        // A free product: no card asked, claimed with how free.
        yield* Effect.promise(async () => {
          await page.goto(`${app.url}/c/${free}`)
          expect(await page.getByLabel("Card number").count()).toBe(0)
          await page.getByLabel("Email", { exact: true }).fill("friend@example.org")
          await page.getByRole("button", { name: "Get it free" }).click()
          await page.getByRole("heading", { name: "Thank you" }).waitFor()
        })
        const customers = yield* rows(
          (sql) => sql<{ data: { how: string; email: string } }>`SELECT data FROM events
            WHERE workspace_id = ${workspaceId} AND type = 'customer.created' ORDER BY created_at`
        )
        expect(customers.map((c) => [c.data.email, c.data.how])).toEqual([
          ["buyer@example.org", "bought"],
          ["friend@example.org", "free"]
        ])
      })
    )

    it.scoped("a paid question: asked on the checkout page, answered by the seller, read on the buyer's page", () =>
      Effect.gen(function* () {
        const { app, workspaceId, questionProduct, storeApi } = yield* checkoutSeller
        const ask = yield* questionProduct({ title: "Ask me", price_cents: 2500, answer_within_days: 2 })
        const page = yield* newPage
        yield* Effect.promise(async () => {
          await page.goto(`${app.url}/c/${ask}`)
          await page.getByText("Answered within 2 days").waitFor()
          await page.getByLabel("Email", { exact: true }).fill("asker@example.org")
          await page.getByLabel("Card number").fill("4242 4242 4242 4242")
          await page.getByLabel("Expiry (MM/YY)").fill("12/34")
          await page.getByLabel("Security code").fill("123")
          // Only spaces pass the browser's own check; the server asks for the question and charges nothing.
          await page.getByLabel("Your question").fill("   ")
          await page.getByRole("button", { name: "Pay" }).click()
          await page.getByRole("alert").filter({ hasText: "Write the question you are paying to ask." }).waitFor()
          await page.getByLabel("Card number").fill("4242 4242 4242 4242")
          await page.getByLabel("Security code").fill("123")
          await page.getByLabel("Your question").fill("Which microphone for a first podcast?")
          await screenshot(page, "checkout-question")
          await page.getByRole("button", { name: "Pay" }).click()
          await page.getByText("Your question is on its way to the seller.").waitFor()
        })
        const [event] = yield* app.setUp(
          Effect.flatMap(SqlClient.SqlClient, (sql) =>
            Effect.orDie(sql<{ data: { question_id: string; answer_url: string } }>`SELECT data FROM events
              WHERE workspace_id = ${workspaceId} AND type = 'paid_question.created'`)
          )
        )
        const answerPage = new URL(event?.data.answer_url ?? "", app.url).href
        yield* Effect.promise(async () => {
          await page.goto(answerPage)
          await page.getByText("Which microphone for a first podcast?").waitFor()
          await page.getByText("Not answered yet.").waitFor()
        })
        const answered = yield* storeApi("POST", `/paid-questions/${event?.data.question_id}/answer`, {
          answer: "A dynamic USB microphone: it forgives a noisy room."
        })
        expect(answered.status).toBe(200)
        yield* Effect.promise(async () => {
          await page.reload()
          await page.getByText("A dynamic USB microphone: it forgives a noisy room.").waitFor()
          await screenshot(page, "question-answered")
        })
      })
    )
  })
})
