/**
 * Paid questions (issue 42) through the real app over HTTP: the seller makes a question product with the store API,
 * a buyer pays and asks at its checkout page (the built-in test processor), the seller lists and answers through the
 * store API, and the buyer reads the answer on their own page. The live (Stripe) path is in checkout-stripe.test.ts.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { webhookEventSchema } from "@svc/core/store-api"
import { Effect, Either, Schema } from "effect"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { Buyer, checkoutSeller, fresh } from "./checkout-support.js"

const CARD = { card_number: "4242 4242 4242 4242", card_expiry: "12/34", card_cvc: "123" }

type Seller = Effect.Effect.Success<typeof checkoutSeller>

const mailOf = (s: Seller, kind: string) =>
  s.app.setUp(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.orDie(sql<{ recipient: string; subject: string; body: string }>`SELECT recipient, subject, body
        FROM mail_outbox WHERE workspace_id = ${s.workspaceId} AND kind = ${kind} ORDER BY created_at`)
    )
  )

/** Opens the question's checkout page and posts `typed` with the test card. */
const ask = (s: Seller, productId: string, typed: Record<string, string>) =>
  Effect.promise(async () => {
    const buyer = new Buyer(s.app.url)
    const page = `${s.app.url}/c/${productId}`
    const opened = await buyer.open(page)
    expect(opened.status, opened.text).toBe(200)
    const answer = await buyer.post(opened.text, page, { ...CARD, ...typed })
    await buyer.close()
    return { opened, answer }
  })

layer(TestApp.layer, { excludeTestServices: true, timeout: "180 seconds" })(`paid questions on ${engineName}`, (it) => {
  it.effect("a question product is made with kind question, and its rules are checked", () =>
    Effect.gen(function* () {
      const s = yield* checkoutSeller
      const made = yield* s.storeApi("POST", "/products", {
        kind: "question",
        title: "Ask me about pricing",
        price_cents: 2500,
        answer_within_days: 2
      })
      expect(made.status, JSON.stringify(made.body)).toBe(201)
      expect(made.body.product).toMatchObject({
        kind: "question",
        custom_ai_id: null,
        title: "Ask me about pricing",
        billing: "one-time",
        checkout_mode: "svc",
        answer_within_days: 2,
        whats_included: ["A personal answer to your question", "Answered within 2 days"]
      })
      const id = (made.body.product as { id: string }).id
      // null restores the default, 3 days.
      const reset = yield* s.storeApi("PATCH", `/products/${id}`, { answer_within_days: null })
      expect(reset.body.product).toMatchObject({ answer_within_days: 3 })

      const refusals: ReadonlyArray<[unknown, string]> = [
        [{ kind: "question", billing: "monthly", price_cents: 900 }, "billing"],
        [{ kind: "question", payment_plan: { count: 3, amount_cents: 1000 }, price_cents: 3000 }, "payment_plan"],
        [{ kind: "question", checkout_mode: "external", checkout_url: "https://example.com/buy" }, "checkout_mode"],
        [{ kind: "question", answer_within_days: 31 }, "answer_within_days"],
        [{ kind: "question", custom_ai_id: "cai_x" }, "custom_ai_id"],
        [{ title: "No AI named" }, "custom_ai_id"]
      ]
      for (const [body, field] of refusals) {
        const refused = yield* s.storeApi("POST", "/products", body)
        expect(refused.status, JSON.stringify(refused.body)).toBe(422)
        expect(JSON.stringify(refused.body), JSON.stringify(body)).toContain(field)
      }
      // A Custom AI's product has no answer_within_days.
      const course = yield* s.product({ title: "Course", price_cents: 1000 })
      const wrong = yield* s.storeApi("PATCH", `/products/${course}`, { answer_within_days: 2 })
      expect(wrong.status).toBe(422)
      expect(JSON.stringify(wrong.body)).toContain("paid-question products only")
      // Nor can a question be bundled: the buyer asks it at its own checkout.
      const ask = yield* s.questionProduct({ price_cents: 1500 })
      const bundle = yield* s.tool("svc_save_bundle", { productIds: [course, ask] })
      expect(JSON.stringify(bundle)).toContain("is a paid question")
    })
  )

  it.effect("a buyer pays and asks; the seller lists and answers; the buyer reads the answer on their page", () =>
    Effect.gen(function* () {
      const s = yield* checkoutSeller
      const id = yield* s.questionProduct({ title: "Ask me", price_cents: 2500, answer_within_days: 2 })
      const email = fresh("quinn")

      // The question is asked before the payment: without it nothing is charged or written.
      const empty = yield* ask(s, id, { email, name: "Quinn", question: "   " })
      expect(empty.opened.text).toContain('<textarea id="question" name="question"')
      expect(empty.opened.text).toContain("Answered within 2 days")
      expect(empty.answer.status).toBe(422)
      expect(empty.answer.text).toContain("Write the question you are paying to ask.")
      // The error is read out with the field (its help and its error), and what was typed comes back.
      expect(empty.answer.text).toContain('aria-invalid="true" aria-describedby="question-help question-error"')
      expect(yield* s.sales).toEqual([])

      const question = "How should I price a 6-week course?\nI have 300 subscribers."
      const paid = yield* ask(s, id, { email, name: "Quinn", question })
      expect(paid.answer.status, paid.answer.text).toBe(200)
      expect(paid.answer.text).toContain("Your question is on its way to the seller.")
      const [sale] = yield* s.sales
      expect(sale).toMatchObject({ buyer_email: email, amount_cents: 2500, source: "svc_checkout", test: true })

      // The event, the buyer's email with the answer link, and word to the store's support email.
      const [event] = yield* s.events("paid_question.created")
      expect(event?.data).toMatchObject({
        product_id: id,
        product_title: "Ask me",
        buyer_email: email,
        buyer_name: "Quinn",
        sale_id: sale?.id,
        text: question,
        amount: 25,
        amount_cents: 2500,
        currency: "usd",
        test: true
      })
      // The envelope a webhook receiver gets decodes exactly against the event's published schema.
      const [envelope] = yield* s.app.setUp(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          Effect.orDie(sql<{ body: string }>`SELECT body FROM events
            WHERE workspace_id = ${s.workspaceId} AND type = 'paid_question.created'`)
        )
      )
      const decoded = Schema.decodeUnknownEither(webhookEventSchema("paid_question.created"), {
        onExcessProperty: "error"
      })(JSON.parse(envelope?.body ?? "null"))
      expect(Either.isRight(decoded) ? "decoded" : String(decoded.left)).toBe("decoded")
      const questionId = String(event?.data.question_id)
      const answerUrl = String(event?.data.answer_url)
      // The server's public address leads it; this test app has none configured, so the link is a path.
      expect(answerUrl).toMatch(new RegExp(`/q/${questionId}\\?k=[A-Za-z0-9_-]{32}$`))
      const answerPage = new URL(answerUrl, s.app.url).href
      const due = Date.parse(String(event?.data.answer_due_at)) - Date.parse(String(sale?.created_at))
      expect(Math.round(due / 3_600_000)).toBe(48)
      const [received] = yield* mailOf(s, "store.question_received")
      expect(received?.recipient).toBe(email)
      expect(received?.body).toContain(answerUrl)
      expect((yield* mailOf(s, "store.question_new"))[0]).toMatchObject({ recipient: "help@example.com" })
      // The generic access email is not sent for a question: its own email carries the link.
      expect(yield* mailOf(s, "store.access")).toEqual([])

      // The list and one question; a test purchase is left out of the New Paid Question feed.
      const listed = yield* s.storeApi("GET", "/paid-questions?status=open")
      expect(listed.body).toMatchObject({ ok: true, has_more: false })
      expect(listed.body.data).toEqual([
        expect.objectContaining({ id: questionId, status: "open", answer: null, answer_url: answerUrl, test: true })
      ])
      expect((yield* s.storeApi("GET", "/paid-questions/recent")).body).toEqual({ ok: true, questions: [] })
      expect((yield* s.storeApi("GET", "/paid-questions?status=maybe")).status).toBe(400)
      expect((yield* s.storeApi("GET", "/paid-questions/pq_nope")).status).toBe(404)

      // The buyer's page: the question, not yet answered; a wrong key finds nothing.
      const before = yield* Effect.promise(() =>
        fetch(answerPage).then(async (r) => ({ s: r.status, t: await r.text() }))
      )
      expect(before.s).toBe(200)
      expect(before.t).toContain("How should I price a 6-week course?")
      expect(before.t).toContain("Not answered yet")
      const wrongKey = yield* Effect.promise(() => fetch(`${s.app.url}/q/${questionId}?k=guess`))
      expect(wrongKey.status).toBe(404)

      // Answering: an empty answer is refused, a good one is kept, emailed and shown.
      expect((yield* s.storeApi("POST", `/paid-questions/${questionId}/answer`, { answer: " " })).status).toBe(422)
      const answered = yield* s.storeApi("POST", `/paid-questions/${questionId}/answer`, {
        answer: "Start at $199 & raise it after the first cohort."
      })
      expect(answered.status, JSON.stringify(answered.body)).toBe(200)
      expect(answered.body.question).toMatchObject({
        status: "answered",
        answer: "Start at $199 & raise it after the first cohort."
      })
      const [told] = yield* mailOf(s, "store.question_answered")
      expect(told).toMatchObject({ recipient: email, subject: expect.stringContaining("answered your question") })
      const after = yield* Effect.promise(() => fetch(answerPage).then((r) => r.text()))
      expect(after).toContain("Start at $199 &#38; raise it after the first cohort.")
      expect((yield* s.storeApi("GET", "/paid-questions?status=open")).body.data).toEqual([])
      expect((yield* s.storeApi("GET", "/paid-questions?status=answered")).body.data).toHaveLength(1)
      // Changing the answer says so.
      yield* s.storeApi("POST", `/paid-questions/${questionId}/answer`, { answer: "Start at $249." })
      expect((yield* mailOf(s, "store.question_answered"))[1]?.subject).toContain("updated the answer")

      // The same buyer may ask again: each payment is its own question.
      const again = yield* ask(s, id, { email, name: "Quinn", question: "And for a membership?" })
      expect(again.answer.status, again.answer.text).toBe(200)
      expect(yield* s.events("paid_question.created")).toHaveLength(2)
    })
  )

  it.effect("an agent makes, publishes and answers a paid question with the store tools alone", () =>
    Effect.gen(function* () {
      const s = yield* checkoutSeller
      const made = yield* s.tool("svc_save_custom_ai_product", {
        kind: "question",
        fields: { title: "Ask me anything", price_cents: 1500, answer_within_days: 5 }
      })
      expect(made.status, JSON.stringify(made.body)).toBe(200)
      const product = made.body.product as { id: string; kind: string; answer_within_days: number }
      expect(product).toMatchObject({ kind: "question", answer_within_days: 5 })
      expect(made.body.created).toBe(true)
      // Changed and published by its product id; a bad field is named under fields.
      const bad = yield* s.tool("svc_save_custom_ai_product", { productId: product.id, fields: { billing: "monthly" } })
      expect(bad.status).toBe(422)
      expect(JSON.stringify(bad.body)).toContain("fields.billing")
      // Without a card processor, the checklist offers no own checkout: a paid question cannot be sold there.
      yield* s.storeApi("PATCH", "/settings", { card_processor: "none" })
      const unpaid = yield* s.tool("svc_get_custom_ai_product", { productId: product.id })
      const [payment] = unpaid.body.publish_checklist as Array<{ item: string; message: string }>
      expect(payment?.item).toBe("payment")
      expect(payment?.message).toContain("A paid question needs a connected card processor")
      expect(payment?.message).not.toContain("checkout_mode")
      const asApi = yield* s.storeApi("GET", `/products/${product.id}`)
      expect(JSON.stringify(asApi.body.publish_checklist)).toContain("a paid question needs a connected card processor")
      expect(JSON.stringify(asApi.body.publish_checklist)).not.toContain("checkout_mode external")
      const refused = yield* s.tool("svc_publish_custom_ai_product", { productId: product.id, live: true })
      expect(refused.status).toBe(409)
      expect(JSON.stringify(refused.body)).toContain("A paid question needs a connected card processor")
      yield* s.storeApi("PATCH", "/settings", { card_processor: "connected" })
      const both = yield* s.tool("svc_save_custom_ai_product", { kind: "question", customAIId: "cai_x" })
      expect(both.status).toBe(422)
      expect(JSON.stringify(both.body)).toContain("leave customAIId out with kind question")
      const none = yield* s.tool("svc_publish_custom_ai_product", { live: true })
      expect(none.status).toBe(422)
      expect(JSON.stringify(none.body)).toContain("customAIId or productId")
      const live = yield* s.tool("svc_publish_custom_ai_product", { productId: product.id, live: true })
      expect(live.status, JSON.stringify(live.body)).toBe(200)
      expect(live.body.product).toMatchObject({ status: "live" })

      const email = fresh("tess")
      const paid = yield* ask(s, product.id, { email, question: "Is a podcast worth it for a newsletter?" })
      expect(paid.answer.status, paid.answer.text).toBe(200)
      const listed = yield* s.tool("svc_manage_sales", { action: "list_questions", questionStatus: "open" })
      expect(listed.status, JSON.stringify(listed.body)).toBe(200)
      const [question] = listed.body.questions as Array<{ id: string; text: string; answer_due_at: string }>
      expect(question?.text).toBe("Is a podcast worth it for a newsletter?")
      const missing = yield* s.tool("svc_manage_sales", { action: "answer_question", questionId: question?.id })
      expect(missing.status).toBe(422)
      expect(JSON.stringify(missing.body)).toContain("answer is needed for action answer_question")
      const unknown = yield* s.tool("svc_manage_sales", { action: "get_question", questionId: "pq_nope" })
      expect(unknown.status).toBe(404)
      expect(JSON.stringify(unknown.body)).toContain("svc_manage_sales with action list_questions")
      const answered = yield* s.tool("svc_manage_sales", {
        action: "answer_question",
        questionId: question?.id,
        answer: "Yes, if you can keep a weekly rhythm."
      })
      expect(answered.status, JSON.stringify(answered.body)).toBe(200)
      expect(answered.body.question).toMatchObject({
        status: "answered",
        answer: "Yes, if you can keep a weekly rhythm."
      })
      expect((yield* mailOf(s, "store.question_answered"))[0]?.recipient).toBe(email)
    })
  )
})
