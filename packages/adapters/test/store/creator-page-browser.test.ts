/**
 * The creator page in a real browser (Debian's Chromium through playwright-core): the avatar loads under the pages'
 * content policy (it is served from our own origin), the featured product's card shows its price and rating and
 * leads to its checkout, the links are reachable by their names, and the sign-up form works from the page.
 * Screenshotted as `creator-page.png`.
 */
import { describe, expect, layer } from "@effect/vitest"
import { MediaLibrary } from "@svc/core/media"
import { Effect, Stream } from "effect"
import { png } from "../media/fixtures.js"
import { chromiumOnMachine, launchChromium, screenshot } from "../oauth/browser-support.js"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { skipWithout } from "../support/external-tool.js"
import { checkoutSeller } from "./checkout-support.js"

const withoutChromium = skipWithout("the creator page browser test", chromiumOnMachine)

describe.skipIf(withoutChromium)(`the creator page in Chromium (${engineName})`, () => {
  layer(TestApp.layer, { excludeTestServices: true, timeout: "180 seconds" })((it) => {
    it.scoped("shows the avatar, the featured card with its rating and the links; the sign-up works", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const course = yield* s.product({ title: "Writing course", price_cents: 4900, tagline: "Six weeks" })
        yield* s.tool("svc_import_product_reviews", {
          productId: course,
          reviews: [{ text: "Clear and kind.", name: "Ada", rating: 5 }]
        })
        const bytes = yield* Effect.promise(() => png(400, 400))
        const avatar = yield* s.app.setUp(
          Effect.orDie(
            Effect.flatMap(MediaLibrary, (library) =>
              library.upload(s.workspaceId, { fileName: "me.png", body: Stream.make(bytes) })
            )
          )
        )
        const set = yield* s.tool("svc_update_creator_page", {
          headline: "I teach clear writing",
          bio: "Ten years of editing.\n\nNow I teach.",
          avatarMediaId: avatar.id,
          links: [{ label: "YouTube", url: "https://youtube.com/@ada" }],
          featuredProductIds: [course]
        })
        expect(set.status, JSON.stringify(set.body)).toBe(200)
        const url = String((set.body.creatorPage as { url: string }).url)
        const pageUrl = new URL(url.slice(url.indexOf("/s/")), s.app.url).href

        const browser = yield* launchChromium
        const context = yield* Effect.acquireRelease(
          Effect.promise(() => browser.newContext({ viewport: { width: 1000, height: 1100 } })),
          (c) => Effect.promise(() => c.close())
        )
        const page = yield* Effect.promise(() => context.newPage())
        page.setDefaultTimeout(20_000)
        const refused: Array<string> = []
        // What the page itself failed to load (the browser's own favicon guess aside) or the policy refused.
        page.on("response", (response) => {
          if (response.status() >= 400 && !response.url().endsWith("/favicon.ico")) {
            refused.push(`${response.status()} ${response.url()}`)
          }
        })
        page.on("console", (message) => {
          if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
            refused.push(message.text())
          }
        })
        yield* Effect.promise(async () => {
          expect((await page.goto(pageUrl))?.status()).toBe(200)
          await page.getByRole("heading", { level: 1 }).waitFor()
          await page.getByText("I teach clear writing").waitFor()
          // The avatar really loaded: the content policy let it in, and it decoded.
          const loaded = await page
            .locator("img.avatar")
            .evaluate(
              (img: { readonly complete: boolean; readonly naturalWidth: number }) =>
                img.complete && img.naturalWidth > 0
            )
          expect(loaded).toBe(true)
          await page.getByRole("navigation", { name: "Links" }).getByRole("link", { name: "YouTube" }).waitFor()
          await page.getByRole("heading", { name: "Featured" }).waitFor()
          await page.getByText("5.0 out of 5 · 1 rating").waitFor()
          await screenshot(page, "creator-page")
          // The card's link is named for its product, and leads to its checkout.
          await page.getByRole("link", { name: "Buy Writing course" }).click()
          await page.waitForURL(new RegExp(`/c/${course}`))
          await page.goBack()
          // The sign-up from the page.
          await page.getByLabel("Email", { exact: true }).fill("reader@example.org")
          await page.getByLabel(/I agree to receive emails/).check()
          await page.getByRole("button", { name: "Sign up" }).click()
          await page.getByText("You are on the list.").or(page.getByText("Check your inbox")).first().waitFor()
        })
        expect(refused).toEqual([])
      })
    )
  })
})
