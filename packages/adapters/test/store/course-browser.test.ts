/**
 * A learner takes a course in a real browser (Debian's Chromium through playwright-core): the emailed course link
 * opens the outline, a lesson shows its image under the pages' policy (served from our own origin) and its Markdown,
 * *Mark as finished* moves the progress on, the last lesson says the course is done, and a question is asked by its
 * label. Screenshotted as `course-*.png`.
 */
import { describe, expect, layer } from "@effect/vitest"
import { MediaLibrary } from "@svc/core/media"
import { Effect, Stream } from "effect"
import { png } from "../media/fixtures.js"
import { chromiumOnMachine, launchChromium, screenshot } from "../oauth/browser-support.js"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { skipWithout } from "../support/external-tool.js"
import { buyWithCard, checkoutSeller } from "./checkout-support.js"
import { course, courseLinkOf } from "./course-support.js"

const withoutChromium = skipWithout("the course browser test", chromiumOnMachine)

describe.skipIf(withoutChromium)(`a learner takes a course in Chromium (${engineName})`, () => {
  layer(TestApp.layer, { excludeTestServices: true, timeout: "180 seconds" })((it) => {
    it.scoped("the course link opens the lessons; each is finished in turn; a question is asked", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const c = yield* course(s, "Sketching course", [
          { title: "Hold the pen", module: "Week 1", text: "Hold it **loosely**.\n\n- near the end\n- not tight" },
          { title: "Draw a line", module: "Week 1", text: "One stroke, no stopping." }
        ])
        const bytes = yield* Effect.promise(() => png(64, 48))
        const asset = yield* s.app.setUp(
          Effect.orDie(
            Effect.flatMap(MediaLibrary, (library) =>
              library.upload(s.workspaceId, { fileName: "pen.png", body: Stream.make(bytes) })
            )
          )
        )
        const filed = yield* s.tool("svc_organize_custom_ai_knowledge", {
          customAIId: c.customAiId,
          changes: [{ sourceId: c.lessonIds[0], mediaId: asset.id }]
        })
        expect(filed.status, JSON.stringify(filed.body)).toBe(200)
        yield* buyWithCard(s, c.productId, "ida@example.org", "Ida")
        const link = yield* courseLinkOf(s, "ida@example.org", "Sketching course")

        const browser = yield* launchChromium
        const context = yield* Effect.acquireRelease(
          Effect.promise(() => browser.newContext({ viewport: { width: 1000, height: 1100 } })),
          (opened) => Effect.promise(() => opened.close())
        )
        const page = yield* Effect.promise(() => context.newPage())
        page.setDefaultTimeout(20_000)
        // What the page's policy refused, and what our pages failed to serve (the browser's own favicon look aside).
        const blocked: Array<string> = []
        page.on("console", (message) => {
          if (message.type() === "error" && message.text().includes("Content Security Policy"))
            blocked.push(message.text())
        })
        page.on("response", (response) => {
          if (response.status() >= 400 && !response.url().endsWith("/favicon.ico")) {
            blocked.push(`${response.status()} ${response.url()}`)
          }
        })
        yield* Effect.promise(async () => {
          expect((await page.goto(link.href))?.status()).toBe(200)
          await page.getByRole("heading", { name: "Sketching course" }).waitFor()
          await page.getByText("0 of 2 lessons finished.").waitFor()
          await page.getByRole("heading", { name: "Week 1" }).waitFor()
          await screenshot(page, "course-outline")
          await page.getByRole("link", { name: "Start: Hold the pen" }).click()

          await page.getByRole("heading", { name: "Hold the pen" }).waitFor()
          await page.locator("strong", { hasText: "loosely" }).waitFor()
          // The lesson's image loads from our own origin under the pages' policy.
          const image = page.locator(".lesson-media img")
          await expect
            .poll(() => image.evaluate((img) => (img as unknown as { readonly naturalWidth: number }).naturalWidth))
            .toBe(64)
          await page.getByRole("button", { name: "Mark as finished" }).click()
          await page.getByRole("status").filter({ hasText: "Lesson marked finished." }).waitFor()
          await page.getByText("You finished this lesson.").waitFor()
          await screenshot(page, "course-lesson")

          await page.getByRole("link", { name: "Next: Draw a line" }).click()
          await page.getByLabel("Your question").fill("Which pen is best?")
          await page.getByRole("button", { name: "Ask" }).click()
          await page.getByText("Your question was sent.").waitFor()
          await page.getByText("Which pen is best?").waitFor()
          await page.getByRole("button", { name: "Mark as finished" }).click()
          await page.getByText("you finished every lesson of the course").waitFor()

          await page.getByRole("link", { name: "Sketching course" }).click()
          await page.getByText("You finished every lesson.").waitFor()
        })
        expect(blocked, blocked.join("\n")).toEqual([])
        expect((yield* s.events("lesson.completed")).map((e) => e.data.finished_course).sort()).toEqual([false, true])
      })
    )
  })
})
