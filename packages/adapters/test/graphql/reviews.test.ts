/**
 * Product reviews (issue 43) on the GraphQL face, over the real app: the seller imports testimonials with
 * `svc_import_product_reviews` (a buyer leaves one through the link they are emailed a week after buying), then lists,
 * reads, hides and shows them through `/graphql`, with the same rows and rules as the store API
 * (`/store-app/v1/reviews`). Time is a clock the test moves.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { readOnlyAccess } from "@svc/core/auth"
import { runDueReviewRequests } from "@svc/core/store"
import { Effect } from "effect"
import { Buyer, checkoutSeller, fresh } from "../store/checkout-support.js"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { ManualClock } from "../support/predictable.js"

const DAY = 86_400_000
const CARD = { card_number: "4242 4242 4242 4242", card_expiry: "12/34", card_cvc: "123" }
const clock = new ManualClock(Date.UTC(2026, 10, 2, 9, 0, 0))

type Seller = Effect.Effect.Success<typeof checkoutSeller>

/** The fields the tests read out of answers. */
type Read =
  | "store"
  | "all"
  | "imported"
  | "buyers"
  | "ofOther"
  | "firstPage"
  | "nextPage"
  | "reviews"
  | "review"
  | "product"
  | "rating"
  | "nodes"
  | "pageInfo"
  | "endCursor"
  | "setReviewShown"
  | "message"

/** An answer read loosely (the first row as `[0]`): the assertions check its shape. */
interface Loose extends Readonly<Record<Read | 0, Loose>> {}

/** A GraphQL answer: `data` and `errors`, as the face sends them. */
interface Answer {
  readonly data: Loose
  readonly errors?: ReadonlyArray<{ readonly message: string; readonly extensions?: Record<string, unknown> }>
}

/** Posts a GraphQL document to the app's `/graphql` with `token`. */
const graphql = (url: string, token: string, query: string, variables?: Record<string, unknown>) =>
  Effect.promise(async () => {
    const response = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query, variables })
    })
    return (await response.json()) as Answer
  })

/** Asks and expects no errors. */
const read = (s: Seller, query: string, variables?: Record<string, unknown>) =>
  Effect.map(graphql(s.app.url, s.user.token, query, variables), (answer) => {
    expect(answer.errors).toBeUndefined()
    return answer.data
  })

/** Imports `reviews` onto the product through the tool's REST form. */
const importReviews = (s: Seller, productId: string, reviews: ReadonlyArray<Record<string, unknown>>) =>
  Effect.gen(function* () {
    const imported = yield* s.tool("svc_import_product_reviews", { productId, reviews })
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    expect(imported.body).toMatchObject({ imported: reviews.length })
  })

// Every field of the store API's ReviewRow.
const REVIEW_FIELDS = "id product_id origin rating text name email source shown given_at created_at"

const SET_SHOWN = `mutation ($id: String!, $shown: Boolean!) { setReviewShown(id: $id, input: { shown: $shown }) {
  __typename
  ... on SetReviewShownPayload { ok review { ${REVIEW_FIELDS} } }
  ... on ToolFailure { ok status message errors { path message } } } }`

layer(TestApp.layerWith({}, { clock }), { excludeTestServices: true, timeout: "180 seconds" })(
  `GraphQL reviews on ${engineName}`,
  (it) => {
    it.effect("lists and reads reviews as the store API does; setReviewShown hides one and shows it again", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const productId = yield* s.product({ title: "Course", price_cents: 4900 })
        const other = yield* s.product({ title: "Guide", price_cents: 1500 })
        yield* importReviews(s, productId, [
          { text: "It changed how I write every morning.", name: "Ada", rating: 5, source: "Trustpilot" },
          { text: "Clear and kind.", name: "Ben", rating: 4 }
        ])
        clock.advance(60_000)
        yield* importReviews(s, other, [{ text: "Short and useful.", name: "Cy" }])

        // The rows are the store API's rows, field for field and in its order.
        const fromApi = yield* s.storeApi("GET", `/reviews?product=${productId}`)
        expect(fromApi.status, JSON.stringify(fromApi.body)).toBe(200)
        const rows = fromApi.body.data as ReadonlyArray<Record<string, unknown>>
        expect(rows.map((row) => [row.name, row.origin, row.shown])).toEqual(
          expect.arrayContaining([
            ["Ada", "imported", true],
            ["Ben", "imported", true]
          ])
        )
        const [first, second] = rows
        const ofOther = (yield* s.storeApi("GET", `/reviews?product=${other}`)).body.data as ReadonlyArray<unknown>

        const listed = yield* read(
          s,
          `query ($id: String!, $product: String!) { store {
             all: reviews(first: 10) { nodes { ${REVIEW_FIELDS} } pageInfo { hasNextPage } }
             imported: reviews(origin: imported, product: $product) { nodes { ${REVIEW_FIELDS} } }
             buyers: reviews(origin: buyer) { nodes { id } }
             review(id: $id) { ${REVIEW_FIELDS} }
             product(id: $product) { reviews { nodes { id origin shown } } rating { count average } } } }`,
          { id: first?.id, product: productId }
        )
        expect(listed.store.all).toEqual({ nodes: [...ofOther, ...rows], pageInfo: { hasNextPage: false } })
        expect(listed.store.imported.nodes).toEqual(rows)
        expect(listed.store.buyers.nodes).toEqual([])
        expect(listed.store.review).toEqual(first)
        expect(listed.store.product.reviews.nodes).toEqual(
          rows.map((row) => ({ id: row.id, origin: "imported", shown: true }))
        )
        expect(listed.store.product.rating).toEqual({ count: 2, average: 4.5 })

        // A page at a time, on the store API's keyset cursors.
        const paged = yield* read(
          s,
          `query ($product: String!) { store { product(id: $product) {
             reviews(first: 1) { nodes { id } pageInfo { hasNextPage endCursor } } } } }`,
          { product: productId }
        )
        expect(paged.store.product.reviews).toEqual({
          nodes: [{ id: first?.id }],
          pageInfo: { hasNextPage: true, endCursor: expect.any(String) }
        })
        const rest = yield* read(
          s,
          `query ($product: String!, $after: String!) { store { product(id: $product) {
             reviews(first: 1, after: $after) { nodes { id } pageInfo { hasNextPage } } } } }`,
          { product: productId, after: paged.store.product.reviews.pageInfo.endCursor }
        )
        expect(rest.store.product.reviews).toEqual({ nodes: [{ id: second?.id }], pageInfo: { hasNextPage: false } })

        // Hidden: off the product's page, and out of its rating (an imported one counts only while shown).
        const hidden = yield* read(s, SET_SHOWN, { id: first?.id, shown: false })
        expect(hidden.setReviewShown).toEqual({
          __typename: "SetReviewShownPayload",
          ok: true,
          review: { ...first, shown: false }
        })
        expect((yield* s.storeApi("GET", `/reviews/${first?.id}`)).body.review).toEqual(hidden.setReviewShown.review)
        const after = yield* read(
          s,
          `query ($id: String!, $product: String!) { store { review(id: $id) { shown }
             product(id: $product) { rating { count } } } }`,
          { id: first?.id, product: productId }
        )
        expect(after.store).toEqual({ review: { shown: false }, product: { rating: { count: 1 } } })
        const page = yield* Effect.promise(() => fetch(`${s.app.url}/c/${productId}`).then((r) => r.text()))
        expect(page).not.toContain(String(first?.text))

        // Shown again: an imported testimonial is the seller's own to quote.
        const shown = yield* read(s, SET_SHOWN, { id: first?.id, shown: true })
        expect(shown.setReviewShown).toMatchObject({ __typename: "SetReviewShownPayload", review: { shown: true } })
      })
    )

    it.effect("an unknown id is not found, a bad origin is refused, a read-only key reads but cannot hide", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const productId = yield* s.product({ title: "Workbook", price_cents: 900 })
        yield* importReviews(s, productId, [{ text: "Worth every cent.", name: "Dee", rating: 5 }])
        const [row] = (yield* s.storeApi("GET", "/reviews")).body.data as ReadonlyArray<{ readonly id: string }>
        const reviewId = String(row?.id)

        const missing = yield* graphql(s.app.url, s.user.token, `{ store { review(id: "rev_nope") { id } } }`)
        expect(missing.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND", status: "not-found" })
        expect(missing.data).toEqual({ store: { review: null } })
        const missingChange = yield* read(s, SET_SHOWN, { id: "rev_nope", shown: false })
        expect(missingChange.setReviewShown).toMatchObject({ __typename: "ToolFailure", status: "not-found" })

        // origin is the store API's enum: anything else is refused before anything runs.
        const badOrigin = yield* graphql(
          s.app.url,
          s.user.token,
          "{ store { reviews(origin: somebody) { nodes { id } } } }"
        )
        expect(badOrigin.errors?.[0]?.extensions).toMatchObject({ code: "GRAPHQL_VALIDATION_FAILED" })
        expect(badOrigin.data).toBeUndefined()
        const badVariable = yield* graphql(
          s.app.url,
          s.user.token,
          "query ($origin: ReviewOrigin) { store { reviews(origin: $origin) { nodes { id } } } }",
          { origin: "somebody" }
        )
        expect(badVariable.errors?.[0]?.message).toContain("ReviewOrigin")
        expect(badVariable.data).toBeUndefined()
        const badPage = yield* graphql(s.app.url, s.user.token, "{ store { reviews(first: 0) { nodes { id } } } }")
        expect(badPage.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", status: "invalid" })

        // Another store's review is not found, to read or to change.
        const stranger = yield* s.app.signUp({ plan: "starter" })
        const theirs = yield* graphql(s.app.url, stranger.token, `{ store { review(id: "${reviewId}") { id } } }`)
        expect(theirs.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND", status: "not-found" })
        const strangerChange = yield* graphql(s.app.url, stranger.token, SET_SHOWN, { id: reviewId, shown: false })
        expect(strangerChange.data.setReviewShown).toMatchObject({ __typename: "ToolFailure", status: "not-found" })

        const reader = yield* s.app.signUp({ plan: "starter", access: readOnlyAccess })
        const readOnly = yield* graphql(s.app.url, reader.token, "{ store { reviews { nodes { id } } } }")
        expect(readOnly).toEqual({ data: { store: { reviews: { nodes: [] } } } })
        const refused = yield* graphql(s.app.url, reader.token, SET_SHOWN, { id: reviewId, shown: false })
        expect(refused.data.setReviewShown).toMatchObject({ __typename: "ToolFailure", status: "forbidden" })
        expect(refused.data.setReviewShown.message).toContain("only read the store")
        expect((yield* s.storeApi("GET", `/reviews/${reviewId}`)).body.review).toMatchObject({ shown: true })
      })
    )

    it.effect("a buyer's review they did not let the seller quote cannot be shown: a conflict", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const productId = yield* s.product({ title: "Planner", price_cents: 1200 })
        const bo = fresh("bo")
        const buyer = new Buyer(s.app.url)
        const checkout = `${s.app.url}/c/${productId}`
        const sold = yield* Effect.promise(async () => {
          const opened = await buyer.open(checkout)
          return buyer.post(opened.text, checkout, { ...CARD, email: bo, name: "Bo" })
        })
        expect(sold.status, sold.text).toBe(200)
        // A week on, Bo is emailed the review link and reviews without leave to quote.
        clock.advance(7 * DAY + 60_000)
        yield* s.app.setUp(runDueReviewRequests())
        const [mail] = yield* s.app.setUp(
          Effect.flatMap(SqlClient.SqlClient, (sql) =>
            Effect.orDie(sql<{ body: string }>`SELECT body FROM mail_outbox
              WHERE workspace_id = ${s.workspaceId} AND kind = 'store.review_request' AND recipient = ${bo}`)
          )
        )
        const link = new URL(String(/\/r\/\S+/.exec(mail?.body ?? "")?.[0]), s.app.url).href
        const reviewed = yield* Effect.promise(async () => {
          const opened = await buyer.open(link)
          const posted = await buyer.post(opened.text, link, { rating: "2", text: "Not for me.", name: "Bo" })
          await buyer.close()
          return posted
        })
        expect(reviewed.status, reviewed.text).toBe(200)

        const listed = yield* read(
          s,
          `query ($product: String!) { store { product(id: $product) {
             reviews(origin: buyer) { nodes { ${REVIEW_FIELDS} } } rating { count average } } } }`,
          { product: productId }
        )
        const [row] = (yield* s.storeApi("GET", `/reviews?product=${productId}&origin=buyer`)).body
          .data as ReadonlyArray<Record<string, unknown>>
        expect(row).toMatchObject({ origin: "buyer", rating: 2, shown: false, email: bo })
        expect(listed.store.product.reviews.nodes).toEqual([row])
        // Its rating counts, though its words are not shown.
        expect(listed.store.product.rating).toEqual({ count: 1, average: 2 })

        const refused = yield* read(s, SET_SHOWN, { id: row?.id, shown: true })
        expect(refused.setReviewShown).toEqual({
          __typename: "ToolFailure",
          ok: false,
          status: "conflict",
          message: expect.stringContaining("did not let the seller quote it"),
          errors: null
        })
        // Hiding it is allowed (it is hidden already), and it stays hidden.
        const kept = yield* read(s, SET_SHOWN, { id: row?.id, shown: false })
        expect(kept.setReviewShown).toEqual({ __typename: "SetReviewShownPayload", ok: true, review: row })
      })
    )
  }
)
