/**
 * GraphiQL in a real browser (Debian's Chromium through playwright-core): `GET /graphql` opens it with every
 * script and style inlined (no request leaves the server's origin), a bearer key goes into the headers editor,
 * and a typed query runs and shows its result. The page is screenshotted as `graphiql.png`.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { chromiumOnMachine, launchChromium, screenshot } from "../oauth/browser-support.js"
import { TestApp } from "../support/app.js"
import { skipWithout } from "../support/external-tool.js"

const withoutChromium = skipWithout("the GraphiQL browser test", chromiumOnMachine)

/** Replaces the text of the Monaco editor inside `container` by typing, as a person would. */
const typeInto = async (page: Page, container: string, text: string) => {
  await page.locator(`${container} .monaco-editor >> visible=true`).first().click()
  await page.keyboard.press("ControlOrMeta+A")
  await page.keyboard.press("Delete")
  // Inserted, not typed key by key: Monaco would add a closing brace after each opening one.
  await page.keyboard.insertText(text)
}

/** The text the result pane shows (Monaco draws only the lines in view, which is all of a short answer). */
const resultText = async (page: Page) =>
  ((await page.locator(".graphiql-response .view-lines").first().textContent()) ?? "").replace(/\s+/g, " ")

describe.skipIf(withoutChromium)("GraphiQL in Chromium", () => {
  layer(TestApp.layer, { excludeTestServices: true, timeout: "180 seconds" })((it) => {
    it.scoped(
      "opens offline at GET /graphql, takes a bearer key in the headers editor and runs a query",
      () =>
        Effect.gen(function* () {
          const app = yield* TestApp
          const { token } = yield* app.signUp({})
          const browser = yield* launchChromium
          const context = yield* Effect.acquireRelease(
            Effect.promise(() => browser.newContext({ viewport: { width: 1280, height: 800 } })),
            (c) => Effect.promise(() => c.close())
          )
          const page = yield* Effect.promise(() => context.newPage())
          page.setDefaultTimeout(20_000)
          const requested: Array<string> = []
          page.on("request", (request) => {
            requested.push(request.url())
          })

          yield* Effect.promise(async () => {
            const opened = await page.goto(`${app.url}/graphql`)
            expect(opened?.status()).toBe(200)
            expect(opened?.headers()["content-type"]).toContain("text/html")
            await page.locator(".graphiql-execute-button").waitFor({ timeout: 30_000 })
            expect(await page.title()).toBe("svc GraphQL")

            await typeInto(page, ".graphiql-query-editor", "query Me { viewer { plan credential { kind } } }")
            await page.locator(".graphiql-editor-tools").getByText("Headers", { exact: true }).click()
            await typeInto(page, ".graphiql-editor-tool", JSON.stringify({ Authorization: `Bearer ${token}` }))
            await page.locator(".graphiql-execute-button").click()
            await expect.poll(() => resultText(page), { timeout: 30_000 }).toContain('"viewer"')
            const shown = await resultText(page)
            expect(shown).toContain('"plan"')
            expect(shown).toContain('"kind"')
            expect(shown).not.toContain('"errors"')
            await screenshot(page, "graphiql")
          })

          // Everything the page loaded came from svc itself (or from blobs it made): GraphiQL works offline.
          const foreign = requested.filter(
            (address) => !address.startsWith(app.url) && !address.startsWith("blob:") && !address.startsWith("data:")
          )
          expect(foreign).toEqual([])
          expect(requested.filter((address) => address.startsWith(`${app.url}/graphql`)).length).toBeGreaterThan(1)
        }),
      120_000
    )
  })
})
