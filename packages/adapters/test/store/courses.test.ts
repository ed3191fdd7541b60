/**
 * Courses (issue 43) through the real app: a course product's lessons are its Custom AI's sources filed in modules;
 * its buyer's access email carries their own course link; they read lessons (Markdown, with the lesson's media), mark
 * each finished (one `lesson.completed` per lesson, the last with `finished_course`), and ask questions the seller
 * answers or hides through `svc_manage_lesson_questions` and the store API. Forged links, lessons of another course
 * and learners whose access ended are refused, nothing written.
 */
import { expect, layer } from "@effect/vitest"
import { MediaLibrary } from "@svc/core/media"
import { webhookEventSchema } from "@svc/core/store-api"
import { Effect, Either, Schema, Stream } from "effect"
import { png } from "../media/fixtures.js"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { buyWithCard, checkoutSeller, fresh, mailOf, graphqlOf } from "./checkout-support.js"
import { course, courseLinkOf, lessonUrl } from "./course-support.js"

type Seller = Effect.Effect.Success<typeof checkoutSeller>

const buy = buyWithCard

const get = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual" })
    return { status: response.status, text: await response.text(), headers: response.headers }
  })

/** Posts a form to a course page as the learner's browser does (from our own origin). */
const post = (s: Seller, url: string, fields: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: s.app.url },
      body: new URLSearchParams(fields).toString()
    })
    return { status: response.status, text: await response.text(), location: response.headers.get("location") }
  })

const decodes = (type: "lesson.completed" | "lesson_question.created", data: unknown) =>
  Either.isRight(
    Schema.decodeUnknownEither(webhookEventSchema(type))({
      id: "evt_x",
      type,
      created_at: new Date().toISOString(),
      store: { handle: null },
      data
    })
  )

layer(TestApp.layer, { excludeTestServices: true, timeout: "180 seconds" })(`courses on ${engineName}`, (it) => {
  it.effect("a buyer reads every lesson and finishes the course: one lesson.completed each, the last finishing", () =>
    Effect.gen(function* () {
      const s = yield* checkoutSeller
      const c = yield* course(s, "Writing course", [
        { title: "Welcome", text: "Read this **first**.\n\n<script>alert(1)</script>" },
        { title: "Drafts", module: "Part 1", text: "## Start messy\n\nWrite [freely](https://example.org)." },
        { title: "Edits", module: "Part 1", text: "Cut words." }
      ])
      const ann = fresh("ann")
      yield* buy(s, c.productId, ann, "Ann")
      const link = yield* courseLinkOf(s, ann, "Writing course")

      const outline = yield* get(link.href)
      expect(outline.status, outline.text).toBe(200)
      expect(outline.text).toContain("0 of 3 lessons finished.")
      expect(outline.text).toContain("Start: Welcome")
      expect(outline.text).toContain(">Part 1</h2>")
      expect(outline.text.indexOf("Drafts")).toBeLessThan(outline.text.indexOf("Edits"))

      const first = yield* get(lessonUrl(link, c.lessonIds[0] ?? ""))
      expect(first.status, first.text).toBe(200)
      expect(first.text).toContain("<strong>first</strong>")
      // The seller's HTML is shown as text, never run.
      expect(first.text).not.toContain("<script>")
      expect(first.text).toContain("&lt;script&gt;")
      expect(first.headers.get("content-security-policy")).toContain("default-src 'none'")
      const second = yield* get(lessonUrl(link, c.lessonIds[1] ?? ""))
      expect(second.text).toContain("<h2>Start messy</h2>")
      expect(second.text).toContain('rel="noopener noreferrer"')

      for (const [i, lessonId] of c.lessonIds.entries()) {
        const done = yield* post(s, lessonUrl(link, lessonId, "/complete"))
        expect(done.status, done.text).toBe(303)
        expect(done.location).toContain(i === 2 ? "n=finished-course" : "n=finished")
      }
      // Finishing a lesson again changes nothing.
      expect((yield* post(s, lessonUrl(link, c.lessonIds[0] ?? "", "/complete"))).status).toBe(303)
      const completed = yield* s.events("lesson.completed")
      // One per lesson; only the last finished says the course is done.
      expect(new Map(completed.map((e) => [e.data.lesson_title, e.data.finished_course]))).toEqual(
        new Map([
          ["Welcome", false],
          ["Drafts", false],
          ["Edits", true]
        ])
      )
      expect(completed.length).toBe(3)
      expect(completed[0]?.data).toMatchObject({ product_id: c.productId, email: ann, name: "Ann" })
      for (const event of completed) expect(decodes("lesson.completed", event.data)).toBe(true)

      const finished = yield* get(link.href)
      expect(finished.text).toContain("You finished every lesson.")
      const feed = yield* s.storeApi("GET", `/lessons/completed?product=${c.productId}`)
      expect(feed.status).toBe(200)
      const rows = feed.body.completions as ReadonlyArray<Record<string, unknown>>
      // Newest first; the three may share a millisecond, so the rows are compared by lesson.
      expect(rows.map((r) => r.lesson_title).sort()).toEqual(["Drafts", "Edits", "Welcome"])
      expect(rows.find((r) => r.lesson_title === "Edits")).toMatchObject({
        finished_course: true,
        lesson_id: c.lessonIds[2]
      })
      expect(String(rows[0]?.id)).toMatch(/^evt_/)
    })
  )

  it.effect("forged links, another course's lesson and ended access are refused, nothing written", () =>
    Effect.gen(function* () {
      const s = yield* checkoutSeller
      const one = yield* course(s, "Course one", [{ title: "One A", text: "a" }])
      const two = yield* course(s, "Course two", [{ title: "Two A", text: "b" }])
      const bea = fresh("bea")
      yield* buy(s, one.productId, bea, "Bea")
      const link = yield* courseLinkOf(s, bea, "Course one")

      const forged = new URL(link)
      forged.searchParams.set("k", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
      expect((yield* get(forged.href)).status).toBe(404)
      expect((yield* get(lessonUrl(forged, one.lessonIds[0] ?? ""))).status).toBe(404)
      expect((yield* post(s, lessonUrl(forged, one.lessonIds[0] ?? "", "/complete"))).status).toBe(404)

      const other = yield* get(lessonUrl(link, two.lessonIds[0] ?? ""))
      expect(other.status).toBe(404)
      expect(other.text).toContain("no such lesson")
      expect((yield* post(s, lessonUrl(link, two.lessonIds[0] ?? "", "/complete"))).status).toBe(404)
      expect((yield* post(s, lessonUrl(link, two.lessonIds[0] ?? "", "/questions"), { text: "Hi?" })).status).toBe(404)
      // A post from another site is refused before anything is read.
      const crossSite = yield* Effect.promise(() =>
        fetch(lessonUrl(link, one.lessonIds[0] ?? "", "/complete"), {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" }
        })
      )
      expect(crossSite.status).toBe(403)
      expect(yield* s.events("lesson.completed")).toEqual([])
      expect(yield* s.events("lesson_question.created")).toEqual([])

      // Refunded: the course page says the access ended, and nothing can be finished.
      const sale = (yield* s.sales).find((row) => row.buyer_email === bea) as { id: string }
      const refund = yield* s.tool("svc_manage_sales", { action: "refund", saleId: sale.id })
      expect(refund.status, JSON.stringify(refund.body)).toBe(200)
      const gone = yield* get(link.href)
      expect(gone.status).toBe(403)
      expect(gone.text).toContain("Your access to this course has ended")
      expect((yield* post(s, lessonUrl(link, one.lessonIds[0] ?? "", "/complete"))).status).toBe(403)
      expect(yield* s.events("lesson.completed")).toEqual([])
    })
  )

  it.effect("a learner asks on a lesson; the seller answers and hides it through the tool and the API", () =>
    Effect.gen(function* () {
      const s = yield* checkoutSeller
      const c = yield* course(s, "Drawing course", [{ title: "Lines", text: "Draw lines." }])
      const [cal, dan] = [fresh("cal"), fresh("dan")]
      yield* buy(s, c.productId, cal, "Cal")
      yield* buy(s, c.productId, dan, "Dan")
      const calLink = yield* courseLinkOf(s, cal, "Drawing course")
      const danLink = yield* courseLinkOf(s, dan, "Drawing course")
      const lesson = c.lessonIds[0] ?? ""

      const empty = yield* post(s, lessonUrl(calLink, lesson, "/questions"), { text: "   ", name: "Cal" })
      expect(empty.status).toBe(422)
      expect(empty.text).toContain("Write your question.")
      expect(empty.text).toContain('aria-describedby="text-help text-error"')
      const asked = yield* post(s, lessonUrl(calLink, lesson, "/questions"), {
        text: "How straight must they be?",
        name: "Cal C."
      })
      expect(asked.status, asked.text).toBe(303)
      expect(asked.location).toContain("n=asked")
      const [event] = yield* s.events("lesson_question.created")
      expect(event?.data).toMatchObject({
        product_id: c.productId,
        lesson_id: lesson,
        lesson_title: "Lines",
        email: cal,
        name: "Cal C.",
        text: "How straight must they be?"
      })
      expect(decodes("lesson_question.created", event?.data)).toBe(true)
      const questionId = String(event?.data.question_id)
      expect((yield* mailOf(s, "store.lesson_question_new"))[0]).toMatchObject({ recipient: "help@example.com" })
      const recent = yield* s.storeApi("GET", "/lesson-questions/recent")
      expect((recent.body.questions as ReadonlyArray<{ question_id: string }>).map((q) => q.question_id)).toEqual([
        questionId
      ])

      // Others on the course read it on the lesson's page.
      expect((yield* get(lessonUrl(danLink, lesson))).text).toContain("How straight must they be?")

      const listed = yield* s.tool("svc_manage_lesson_questions", { action: "list", status: "open" })
      expect(listed.status, JSON.stringify(listed.body)).toBe(200)
      expect(listed.body.questions).toMatchObject([{ id: questionId, status: "open", hidden: false }])
      const missing = yield* s.tool("svc_manage_lesson_questions", { action: "answer", questionId })
      expect(missing.status).toBe(422)
      expect(JSON.stringify(missing.body)).toContain("answer is needed for action answer")
      const wrongField = yield* s.tool("svc_manage_lesson_questions", { action: "get", questionId, answer: "x" })
      expect(wrongField.status).toBe(422)
      const answered = yield* s.tool("svc_manage_lesson_questions", {
        action: "answer",
        questionId,
        answer: "Not at all: wobbly is fine."
      })
      expect(answered.status, JSON.stringify(answered.body)).toBe(200)
      expect(answered.body.question).toMatchObject({ status: "answered", answer: "Not at all: wobbly is fine." })
      const [mail] = yield* mailOf(s, "store.lesson_question_answered")
      expect(mail?.recipient).toBe(cal)
      expect(mail?.body).toContain(`/learn/`)
      expect((yield* get(lessonUrl(danLink, lesson))).text).toContain("Not at all: wobbly is fine.")

      const hidden = yield* s.storeApi("POST", `/lesson-questions/${questionId}`, { hidden: true })
      expect(hidden.status, JSON.stringify(hidden.body)).toBe(200)
      expect(hidden.body.question).toMatchObject({ hidden: true })
      expect((yield* get(lessonUrl(danLink, lesson))).text).not.toContain("How straight must they be?")
      const own = yield* get(lessonUrl(calLink, lesson))
      expect(own.text).toContain("How straight must they be?")
      expect(own.text).toContain("only you see this")

      const page = yield* s.storeApi("GET", `/lesson-questions?product=${c.productId}&status=answered`)
      expect(page.status, JSON.stringify(page.body)).toBe(200)
      expect((page.body.data as ReadonlyArray<{ id: string }>).map((q) => q.id)).toEqual([questionId])
      const bad = yield* s.storeApi("GET", "/lesson-questions?status=closed")
      expect(bad.status).toBe(400)
      const none = yield* s.storeApi("GET", "/lesson-questions/lq_nope")
      expect(none.status).toBe(404)

      // The graph has the same rows and the same rules.
      const graph = graphqlOf(s)
      const fields =
        "id product_id product_title lesson_id lesson_title email name text status answer answered_at hidden created_at"
      const listedOnGraph = yield* graph(
        `query ($id: String!, $product: String!) { store {
           lessonQuestions(status: answered) { nodes { ${fields} } }
           lessonQuestion(id: $id) { id hidden }
           product(id: $product) { lessonQuestions { nodes { id } } } } }`,
        { id: questionId, product: c.productId }
      )
      expect(listedOnGraph.errors).toBeUndefined()
      expect(listedOnGraph.data).toEqual({
        store: {
          lessonQuestions: { nodes: page.body.data },
          lessonQuestion: { id: questionId, hidden: true },
          product: { lessonQuestions: { nodes: [{ id: questionId }] } }
        }
      })
      const shownAgain = yield* graph(
        `mutation ($id: String!) { setLessonQuestionHidden(id: $id, input: { hidden: false }) {
           __typename ... on AnswerLessonQuestionPayload { ok question { id hidden } }
           ... on ToolFailure { message } } }`,
        { id: questionId }
      )
      expect(shownAgain.errors).toBeUndefined()
      expect(shownAgain.data).toEqual({
        setLessonQuestionHidden: {
          __typename: "AnswerLessonQuestionPayload",
          ok: true,
          question: { id: questionId, hidden: false }
        }
      })
      const emptyAnswer = yield* graph(
        `mutation ($id: String!) { answerLessonQuestion(id: $id, input: { answer: " " }) {
           __typename ... on ToolFailure { status errors { path } } } }`,
        { id: questionId }
      )
      expect(emptyAnswer.data).toEqual({
        answerLessonQuestion: { __typename: "ToolFailure", status: "invalid", errors: [{ path: "answer" }] }
      })
    })
  )

  it.effect("a lesson's media plays from our own origin, to learners only", () =>
    Effect.gen(function* () {
      const s = yield* checkoutSeller
      const c = yield* course(s, "Photo course", [{ title: "Light", text: "Look at the light." }])
      const bytes = yield* Effect.promise(() => png(40, 30))
      const asset = yield* s.app.setUp(
        Effect.orDie(
          Effect.flatMap(MediaLibrary, (library) =>
            library.upload(s.workspaceId, { fileName: "light.png", body: Stream.make(bytes) })
          )
        )
      )
      const nope = yield* s.tool("svc_organize_custom_ai_knowledge", {
        customAIId: c.customAiId,
        changes: [{ sourceId: c.lessonIds[0], mediaId: "med_nope" }]
      })
      expect(nope.status).toBe(422)
      expect(JSON.stringify(nope.body)).toContain("changes.0.mediaId")
      const set = yield* s.tool("svc_organize_custom_ai_knowledge", {
        customAIId: c.customAiId,
        changes: [{ sourceId: c.lessonIds[0], mediaId: asset.id }]
      })
      expect(set.status, JSON.stringify(set.body)).toBe(200)
      expect(set.body.sources).toMatchObject([{ mediaId: asset.id }])

      const eve = fresh("eve")
      yield* buy(s, c.productId, eve, "Eve")
      const link = yield* courseLinkOf(s, eve, "Photo course")
      const lesson = yield* get(lessonUrl(link, c.lessonIds[0] ?? ""))
      expect(lesson.text).toContain(
        `<img src="${lessonUrl(link, c.lessonIds[0] ?? "", "/media").replace(/&/g, "&#38;")}"`
      )
      const media = yield* Effect.promise(async () => {
        const response = await fetch(lessonUrl(link, c.lessonIds[0] ?? "", "/media"))
        return {
          status: response.status,
          type: response.headers.get("content-type"),
          size: (await response.arrayBuffer()).byteLength
        }
      })
      expect(media).toEqual({ status: 200, type: "image/png", size: bytes.byteLength })
      const forged = new URL(link)
      forged.searchParams.set("k", "nope")
      expect((yield* get(lessonUrl(forged, c.lessonIds[0] ?? "", "/media"))).status).toBe(404)
    })
  )
})
