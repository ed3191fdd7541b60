/**
 * Buyers' reviews (issue 43) through the real app: a buyer's first sale of a product asks them, a week later, for a
 * review through a link only they have; the review page takes a rating and words once (409 after, 404 for a forged
 * link); the review is `review.created` and, with leave to quote, `testimonial.created`, each in its feed; the product's
 * page shows quotable ones, and the seller may hide one. Time is a clock the test moves.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { runDueReviewRequests } from "@svc/core/store"
import { webhookEventSchema } from "@svc/core/store-api"
import { Effect, Either, Schema } from "effect"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { ManualClock } from "../support/predictable.js"
import { Buyer, buyWithCard, CARD, checkoutSeller, fresh, mailOf } from "./checkout-support.js"

const DAY = 86_400_000
const clock = new ManualClock(Date.UTC(2026, 10, 2, 9, 0, 0))

type Seller = Effect.Effect.Success<typeof checkoutSeller>

const buy = buyWithCard

/** The review link emailed to `email`: an absolute address on the test app. */
const reviewLinkOf = (s: Seller, email: string) =>
  Effect.map(mailOf(s, "store.review_request"), (mails) => {
    const mail = mails.find((m) => m.recipient === email)
    const path = /\/r\/\S+/.exec(mail?.body ?? "")?.[0]
    if (path === undefined) throw new Error(`no review link mailed to ${email}`)
    return new URL(path, s.app.url).href
  })

/**
 * Opens the review page, then posts `typed` to it, as a buyer's browser does (a page with no form, a used or forged
 * link's, is posted to all the same: what a replayed post gets).
 */
const review = (s: Seller, link: string, typed: Record<string, string>) =>
  Effect.promise(async () => {
    const buyer = new Buyer(s.app.url)
    const opened = await buyer.open(link)
    const posted =
      opened.status === 200
        ? await buyer.post(opened.text, link, typed)
        : await fetch(link, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", origin: s.app.url },
            body: new URLSearchParams(typed).toString()
          }).then(async (r) => ({ status: r.status, text: await r.text() }))
    await buyer.close()
    return { opened, posted }
  })

const due = (s: Seller) => s.app.setUp(runDueReviewRequests())

layer(TestApp.layerWith({}, { clock }), { excludeTestServices: true, timeout: "180 seconds" })(
  `buyers' reviews on ${engineName}`,
  (it) => {
    it.effect("a week after the first sale the buyer is asked once; their review and testimonial are events", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Writing course", price_cents: 4900 })
        const ann = fresh("ann")
        yield* buy(s, id, ann, "Ann")
        // Not due yet: nothing is sent.
        yield* due(s)
        expect(yield* mailOf(s, "store.review_request")).toEqual([])
        clock.advance(7 * DAY + 60_000)
        expect(yield* due(s)).toBeGreaterThanOrEqual(1)
        const [mail] = yield* mailOf(s, "store.review_request")
        expect(mail).toMatchObject({ recipient: ann, subject: "How is Writing course?" })
        expect(mail?.body).toContain("Hello Ann,")
        // Sent once: a later look finds nothing of this buyer's.
        yield* due(s)
        expect((yield* mailOf(s, "store.review_request")).length).toBe(1)

        const link = yield* reviewLinkOf(s, ann)
        // Nothing chosen or written: each field says what it needs, and nothing is kept.
        const empty = yield* review(s, link, { text: "  ", name: "Ann" })
        expect(empty.opened.status, empty.opened.text).toBe(200)
        expect(empty.opened.text).toContain("How is Writing course?")
        expect(empty.opened.text).toContain('value="Ann"')
        expect(empty.posted.status).toBe(422)
        expect(empty.posted.text).toContain("Choose 1 to 5 stars.")
        expect(empty.posted.text).toContain("Write a few words about it.")
        expect(empty.posted.text).toContain('aria-invalid="true" aria-describedby="text-error"')
        expect(yield* s.events("review.created")).toEqual([])

        const done = yield* review(s, link, {
          rating: "5",
          text: "Clear, <kind> and useful.",
          name: "Ann B.",
          quote: "yes"
        })
        expect(done.posted.status, done.posted.text).toBe(200)
        expect(done.posted.text).toContain("Your review of Writing course is in.")

        // A link answers once: posting or opening it again is 409; a forged key is not found.
        const again = yield* review(s, link, { rating: "1", text: "Changed my mind." })
        expect(again.opened.status).toBe(409)
        expect(again.posted.status).toBe(409)
        expect(again.posted.text).toContain("This link was used already")
        const forged = link.replace(/k=[^&]+/, "k=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
        expect((yield* review(s, forged, { rating: "5", text: "Forged." })).posted.status).toBe(404)
        expect((yield* review(s, `${s.app.url}/r/rrq_nope?k=x`, { rating: "5", text: "No." })).opened.status).toBe(404)

        // One review.created and one testimonial.created, each decoding exactly against its published schema.
        const [created] = yield* s.events("review.created")
        expect(created?.data).toMatchObject({
          product_id: id,
          product_title: "Writing course",
          reviewer_email: ann,
          reviewer_name: "Ann B.",
          rating: 5,
          text: "Clear, <kind> and useful.",
          quotable: true
        })
        const [testimonial] = yield* s.events("testimonial.created")
        expect(testimonial?.data).toMatchObject({
          testimonial_id: created?.data.review_id,
          email: ann,
          name: "Ann B.",
          rating: 5,
          text: "Clear, <kind> and useful."
        })
        const bodies = yield* s.app.setUp(
          Effect.flatMap(SqlClient.SqlClient, (sql) =>
            Effect.orDie(sql<{ type: string; body: string }>`SELECT type, body FROM events
              WHERE workspace_id = ${s.workspaceId} AND type IN ('review.created', 'testimonial.created')`)
          )
        )
        expect(bodies.length).toBe(2)
        for (const { type, body } of bodies) {
          const decoded = Schema.decodeUnknownEither(webhookEventSchema(type as "review.created"), {
            onExcessProperty: "error"
          })(JSON.parse(body))
          expect(Either.isRight(decoded) ? "decoded" : String(decoded.left), type).toBe("decoded")
        }

        // The feeds list them, under their event ids; the product filter narrows them.
        const reviews = yield* s.storeApi("GET", `/reviews/recent?product=${id}`)
        expect(reviews.status).toBe(200)
        expect(reviews.body.reviews).toEqual([expect.objectContaining({ review_id: created?.data.review_id })])
        const testimonials = yield* s.storeApi("GET", "/testimonials/recent")
        expect(testimonials.body.testimonials).toEqual([
          expect.objectContaining({ testimonial_id: created?.data.review_id, name: "Ann B." })
        ])
        expect((yield* s.storeApi("GET", "/reviews/recent?product=prod_other")).body.reviews).toEqual([])

        // The product's page shows it with the rating.
        const page = yield* Effect.promise(() => fetch(`${s.app.url}/c/${id}`).then((r) => r.text()))
        expect(page).toContain("5.0 out of 5 · 1 rating")
        expect(page).toContain("Clear, &#60;kind&#62; and useful.")
        expect(page).toContain("Ann B.")
      })
    )

    it.effect("without leave to quote the words stay off the page; the seller may hide and show what they may", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Guide", price_cents: 1500 })
        const [bo, cy] = [fresh("bo"), fresh("cy")]
        yield* buy(s, id, bo, "Bo")
        yield* buy(s, id, cy, "Cy")
        // A second sale to the same buyer asks nothing more.
        yield* buy(s, id, cy, "Cy")
        clock.advance(7 * DAY + 60_000)
        yield* due(s)
        expect((yield* mailOf(s, "store.review_request")).map((m) => m.recipient).sort()).toEqual([bo, cy].sort())

        const quiet = yield* review(s, yield* reviewLinkOf(s, bo), { rating: "2", text: "Not for me.", name: "Bo" })
        expect(quiet.posted.status, quiet.posted.text).toBe(200)
        clock.advance(60_000)
        const shown = yield* review(s, yield* reviewLinkOf(s, cy), {
          rating: "4",
          text: "Helped a lot.",
          name: "Cy",
          quote: "yes"
        })
        expect(shown.posted.status).toBe(200)
        // Bo's review is an event, not a testimonial; it counts in the rating but its words are not shown.
        expect((yield* s.events("review.created")).length).toBe(2)
        expect((yield* s.events("testimonial.created")).map((e) => e.data.email)).toEqual([cy])
        const page = () => Effect.promise(() => fetch(`${s.app.url}/c/${id}`).then((r) => r.text()))
        const before = yield* page()
        expect(before).toContain("3.0 out of 5 · 2 ratings")
        expect(before).toContain("Helped a lot.")
        expect(before).not.toContain("Not for me.")

        // The store API lists both; Bo's cannot be shown (they did not allow it), Cy's can be hidden and shown again.
        const listed = yield* s.storeApi("GET", `/reviews?product=${id}&origin=buyer`)
        expect(listed.status, JSON.stringify(listed.body)).toBe(200)
        const rows = listed.body.data as Array<{ id: string; name: string; shown: boolean; origin: string }>
        expect(rows.map((r) => [r.name, r.shown, r.origin])).toEqual([
          ["Cy", true, "buyer"],
          ["Bo", false, "buyer"]
        ])
        const [cyReview, boReview] = rows
        const refused = yield* s.storeApi("POST", `/reviews/${boReview?.id}`, { shown: true })
        expect(refused.status).toBe(409)
        expect(JSON.stringify(refused.body)).toContain("did not let the seller quote it")
        const hidden = yield* s.storeApi("POST", `/reviews/${cyReview?.id}`, { shown: false })
        expect(hidden.status, JSON.stringify(hidden.body)).toBe(200)
        expect(hidden.body.review).toMatchObject({ id: cyReview?.id, shown: false })
        const after = yield* page()
        expect(after).not.toContain("Helped a lot.")
        // A hidden buyer's rating still counts.
        expect(after).toContain("3.0 out of 5 · 2 ratings")
        expect((yield* s.storeApi("POST", `/reviews/${cyReview?.id}`, { shown: true })).body.review).toMatchObject({
          shown: true
        })
        const missing = yield* s.storeApi("GET", "/reviews/rev_nope")
        expect(missing.status).toBe(404)
        expect(JSON.stringify(missing.body)).toContain("GET /reviews lists them")
        const badOrigin = yield* s.storeApi("GET", "/reviews?origin=somebody")
        expect(badOrigin.status).toBe(400)
      })
    )

    it.effect("a refunded buyer, one off the email list and a paid question's buyer are not asked", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Workbook", price_cents: 900 })
        const question = yield* s.questionProduct({ title: "Ask me", price_cents: 2500 })
        const [dee, eli, fay] = [fresh("dee"), fresh("eli"), fresh("fay")]
        yield* buy(s, id, dee, "Dee")
        yield* buy(s, id, eli, "Eli")
        const refund = yield* s.tool("svc_manage_sales", {
          action: "refund",
          saleId: ((yield* s.sales).find((sale) => sale.buyer_email === dee) as { id: string }).id
        })
        expect(refund.status, JSON.stringify(refund.body)).toBe(200)
        const off = yield* s.storeApi("PATCH", `/email-contacts/${encodeURIComponent(eli)}`, { subscribed: false })
        expect(off.status, JSON.stringify(off.body)).toBe(200)
        const buyer = new Buyer(s.app.url)
        const page = `${s.app.url}/c/${question}`
        const opened = yield* Effect.promise(() => buyer.open(page))
        const asked = yield* Effect.promise(() =>
          buyer.post(opened.text, page, { ...CARD, email: fay, name: "Fay", question: "How?" })
        )
        yield* Effect.promise(() => buyer.close())
        expect(asked.status, asked.text).toBe(200)

        clock.advance(7 * DAY + 60_000)
        yield* due(s)
        expect(yield* mailOf(s, "store.review_request")).toEqual([])
        const requests = yield* s.app.setUp(
          Effect.flatMap(SqlClient.SqlClient, (sql) =>
            Effect.orDie(sql<{ email: string; state: string; drop_reason: string | null }>`SELECT email, state,
              drop_reason FROM store_review_requests WHERE workspace_id = ${s.workspaceId} ORDER BY email`)
          )
        )
        expect(requests).toEqual([
          { email: dee, state: "dropped", drop_reason: "refunded" },
          { email: eli, state: "dropped", drop_reason: "unsubscribed" }
        ])
      })
    )
  }
)
