/** What the course tests share: a course product with its lessons, and a learner's course link. */
import { expect } from "@effect/vitest"
import { CustomAis } from "@svc/core/custom-ai"
import { Effect } from "effect"
import { type checkoutSeller, mailOf } from "./checkout-support.js"

type Seller = Effect.Effect.Success<typeof checkoutSeller>

/** A course Custom AI with `lessons` (title, module, Markdown), sold live as a course product; answers the ids. */
export const course = (
  s: Seller,
  title: string,
  lessons: ReadonlyArray<{ readonly title: string; readonly module?: string; readonly text: string }>
) =>
  Effect.gen(function* () {
    const customAi = yield* s.app.setUp(
      Effect.orDie(Effect.flatMap(CustomAis, (ais) => ais.create(s.workspaceId, { name: title })))
    )
    const lessonIds: Array<string> = []
    for (const lesson of lessons) {
      const added = yield* s.tool("svc_manage_custom_ai_sources", {
        customAIId: customAi.id,
        action: "add",
        kind: "text",
        title: lesson.title,
        text: lesson.text
      })
      expect(added.status, JSON.stringify(added.body)).toBe(200)
      lessonIds.push((added.body.sources as ReadonlyArray<{ id: string }>)[0]?.id ?? "")
    }
    const filed = yield* s.tool("svc_organize_custom_ai_knowledge", {
      customAIId: customAi.id,
      changes: lessons.map((lesson, i) => ({ sourceId: lessonIds[i], folder: lesson.module ?? "", position: i }))
    })
    expect(filed.status, JSON.stringify(filed.body)).toBe(200)
    const created = yield* s.storeApi("POST", "/products", {
      custom_ai_id: customAi.id,
      title,
      price_cents: 2900,
      chat_enabled: false
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const productId = (created.body.product as { id: string }).id
    const published = yield* s.storeApi("POST", `/products/${productId}/publish`)
    expect(published.status, JSON.stringify(published.body)).toBe(200)
    return { productId, customAiId: customAi.id, lessonIds }
  })

/** The course link of `email`'s access email for `title`. */
export const courseLinkOf = (s: Seller, email: string, title: string) =>
  Effect.map(mailOf(s, "store.access"), (mails) => {
    const mail = mails.find((m) => m.recipient === email && m.body.includes(`Start ${title}`))
    const path = /\/learn\/\S+/.exec(mail?.body ?? "")?.[0]
    if (path === undefined) throw new Error(`no course link mailed to ${email}: ${mails.map((m) => m.body)}`)
    return new URL(path, s.app.url)
  })

/** A lesson's address under a course link. */
export const lessonUrl = (link: URL, lessonId: string, tail = "") => {
  const url = new URL(link)
  url.pathname = `${link.pathname}/${lessonId}${tail}`
  return url.href
}
