/**
 * Paid questions (issue 42) on the GraphQL face, over the real app: a buyer pays and asks at the checkout page (the
 * built-in test processor), and the seller lists, reads and answers the question through `/graphql`, with the same
 * rows and rules as the store API (`/store-app/v1/paid-questions`).
 */
import { expect, layer } from "@effect/vitest"
import { readOnlyAccess } from "@svc/core/auth"
import { Effect } from "effect"
import { Buyer, checkoutSeller, fresh } from "../store/checkout-support.js"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"

const CARD = { card_number: "4242 4242 4242 4242", card_expiry: "12/34", card_cvc: "123" }

type Seller = Effect.Effect.Success<typeof checkoutSeller>

/** The fields the tests read out of answers. */
type Read =
  | "store"
  | "open"
  | "answered"
  | "ofOther"
  | "paidQuestions"
  | "paidQuestion"
  | "product"
  | "nodes"
  | "answerPaidQuestion"
  | "question"
  | "errors"
  | "path"
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

/** A buyer opens the question's checkout page and pays with the test card, asking `question`. */
const ask = (s: Seller, productId: string, question: string) =>
  Effect.promise(async () => {
    const buyer = new Buyer(s.app.url)
    const page = `${s.app.url}/c/${productId}`
    const opened = await buyer.open(page)
    expect(opened.status, opened.text).toBe(200)
    const paid = await buyer.post(opened.text, page, { ...CARD, email: fresh("asker"), name: "Ada", question })
    await buyer.close()
    expect(paid.status, paid.text).toBe(200)
  })

// Every field of the store API's PaidQuestionRow.
const QUESTION_FIELDS = `id product_id product_title buyer_email buyer_name sale_id text amount amount_cents currency
  test answer_due_at answer_url status answer answered_at created_at`

const ANSWER = `mutation ($id: String!, $answer: String!) { answerPaidQuestion(id: $id, input: { answer: $answer }) {
  __typename
  ... on AnswerPaidQuestionPayload { ok question { ${QUESTION_FIELDS} } }
  ... on ToolFailure { ok status message errors { path message } } } }`

layer(TestApp.layer, { excludeTestServices: true, timeout: "180 seconds" })(
  `GraphQL paid questions on ${engineName}`,
  (it) => {
    it.effect("lists, reads and answers a paid question as the store API does; a bad answer is a ToolFailure", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const productId = yield* s.questionProduct({ title: "Ask me", price_cents: 2500, answer_within_days: 2 })
        const other = yield* s.questionProduct({ title: "Ask me later", price_cents: 900 })
        yield* ask(s, productId, "How should I price a 6-week course?")
        const [event] = yield* s.events("paid_question.created")
        const questionId = String(event?.data.question_id)

        // The rows are the store API's rows, field for field.
        const fromApi = yield* s.storeApi("GET", `/paid-questions/${questionId}`)
        expect(fromApi.status).toBe(200)
        const row = fromApi.body.question as Record<string, unknown>
        expect(row).toMatchObject({ id: questionId, status: "open", answer: null, test: true, amount_cents: 2500 })

        const listed = yield* read(
          s,
          `query ($id: String!, $product: String!, $other: String!) { store {
             open: paidQuestions(status: open, first: 10) { nodes { ${QUESTION_FIELDS} } pageInfo { hasNextPage } }
             answered: paidQuestions(status: answered) { nodes { id } }
             ofOther: paidQuestions(product: $other) { nodes { id } }
             paidQuestion(id: $id) { ${QUESTION_FIELDS} }
             product(id: $product) { paidQuestions { nodes { id status } } } } }`,
          { id: questionId, product: productId, other }
        )
        expect(listed.store.open).toEqual({ nodes: [row], pageInfo: { hasNextPage: false } })
        expect(listed.store.answered.nodes).toEqual([])
        expect(listed.store.ofOther.nodes).toEqual([])
        expect(listed.store.paidQuestion).toEqual(row)
        expect(listed.store.product.paidQuestions.nodes).toEqual([{ id: questionId, status: "open" }])

        // An empty answer is refused with the API's field problem, and nothing is answered or sent.
        const empty = yield* read(s, ANSWER, { id: questionId, answer: "   " })
        expect(empty.answerPaidQuestion).toEqual({
          __typename: "ToolFailure",
          ok: false,
          status: "invalid",
          message: expect.stringContaining("answer must not be empty"),
          errors: [{ path: "answer", message: expect.stringContaining("must not be empty") }]
        })
        const tooLong = yield* read(s, ANSWER, { id: questionId, answer: "x".repeat(20_001) })
        expect(tooLong.answerPaidQuestion).toMatchObject({ __typename: "ToolFailure", status: "invalid" })
        expect(tooLong.answerPaidQuestion.errors[0].path).toBe("answer")
        const missing = yield* read(s, ANSWER, { id: "pq_nope", answer: "Hello" })
        expect(missing.answerPaidQuestion).toMatchObject({ __typename: "ToolFailure", status: "not-found" })
        expect((yield* s.mail).filter((m) => m.kind === "store.question_answered")).toEqual([])

        const answered = yield* read(s, ANSWER, { id: questionId, answer: " Start at $199. " })
        expect(answered.answerPaidQuestion).toEqual({
          __typename: "AnswerPaidQuestionPayload",
          ok: true,
          question: { ...row, status: "answered", answer: "Start at $199.", answered_at: expect.any(String) }
        })
        // The store API sees the same answer, and the buyer was emailed it.
        expect((yield* s.storeApi("GET", `/paid-questions/${questionId}`)).body.question).toEqual(
          answered.answerPaidQuestion.question
        )
        expect((yield* s.mail).filter((m) => m.kind === "store.question_answered")).toHaveLength(1)
        const after = yield* read(
          s,
          `{ store { open: paidQuestions(status: open) { nodes { id } } answered: paidQuestions(status: answered) {
             nodes { id answer } } } }`
        )
        expect(after.store).toEqual({
          open: { nodes: [] },
          answered: { nodes: [{ id: questionId, answer: "Start at $199." }] }
        })
      })
    )

    it.effect("another store's question is not found; a read-only key reads but cannot answer", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const productId = yield* s.questionProduct({ price_cents: 1500 })
        yield* ask(s, productId, "Is it worth it?")
        const [event] = yield* s.events("paid_question.created")
        const questionId = String(event?.data.question_id)

        const stranger = yield* s.app.signUp({ plan: "starter" })
        const theirs = yield* graphql(
          s.app.url,
          stranger.token,
          `{ store { paidQuestion(id: "${questionId}") { id } } }`
        )
        expect(theirs.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND", status: "not-found" })
        expect(theirs.data).toEqual({ store: { paidQuestion: null } })
        const strangerAnswer = yield* graphql(s.app.url, stranger.token, ANSWER, { id: questionId, answer: "Mine" })
        expect(strangerAnswer.data.answerPaidQuestion).toMatchObject({ __typename: "ToolFailure", status: "not-found" })

        const bad = yield* graphql(s.app.url, s.user.token, "{ store { paidQuestions(first: 0) { nodes { id } } } }")
        expect(bad.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", status: "invalid" })

        const reader = yield* s.app.signUp({ plan: "starter", access: readOnlyAccess })
        const readOnly = yield* graphql(s.app.url, reader.token, "{ store { paidQuestions { nodes { id } } } }")
        expect(readOnly).toEqual({ data: { store: { paidQuestions: { nodes: [] } } } })
        const refused = yield* graphql(s.app.url, reader.token, ANSWER, { id: questionId, answer: "Yes" })
        expect(refused.data.answerPaidQuestion).toMatchObject({ __typename: "ToolFailure", status: "forbidden" })
        expect(refused.data.answerPaidQuestion.message).toContain("only read the store")
        expect((yield* s.storeApi("GET", `/paid-questions/${questionId}`)).body.question).toMatchObject({
          status: "open",
          answer: null
        })
      })
    )
  }
)
