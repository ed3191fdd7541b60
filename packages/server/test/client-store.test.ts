/**
 * The store API client of `@svc/client` (Promise face) against a real `svc serve`: the calls of each group, paging
 * with the iterator, idempotent sales, and the typed error of each status the server can be made to answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  createStoreClient,
  type StoreClient,
  StoreApiError,
  StoreBadRequestError,
  StoreConflictError,
  StoreForbiddenError,
  StoreInvalidError,
  StoreNotFoundError,
  StorePlanRequiredError,
  StoreRateLimitedError,
  StoreUnauthorizedError
} from "@svc/client"
import { hiddenFields } from "./support/oauth-browser.js"
import { engineName, freshDatabase, svcJson } from "./support/environment.js"
import { type RunningServer, startServer } from "./support/server-process.js"
import { setUpSellerWithReadKey } from "./support/webhooks.js"

let env: Record<string, string> = {}
let dispose = async () => {}
let server: RunningServer | undefined
let store: StoreClient
let readOnly: StoreClient
let freePlan: StoreClient
let baseUrl = ""
let sellerToken = ""
let customAiId = ""
let secondCustomAiId = ""
/** A live product of the first Custom AI, made before the tests. */
let product = ""
/** The requests the full-access client sent, in order (its `fetch` passes each on to the real one). */
const sent: Array<{ method: string; url: string; body: unknown }> = []

const recordingFetch: typeof fetch = (input, init) => {
  const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined
  sent.push({ method: init?.method ?? "GET", url: String(input), body })
  return fetch(input, init)
}

/** A buyer opens a question product's checkout page and pays with the test card, asking `question`. */
const payAndAsk = async (origin: string, productId: string, email: string, question: string) => {
  const page = `${origin}/c/${productId}`
  const opened = await fetch(page)
  const cookie = opened.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ")
  const html = await opened.text()
  expect(opened.status, html).toBe(200)
  const form = {
    ...hiddenFields(html, `/c/${productId}`),
    card_number: "4242 4242 4242 4242",
    card_expiry: "12/34",
    card_cvc: "123",
    email,
    question
  }
  const paid = await fetch(page, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin, cookie },
    body: new URLSearchParams(form).toString()
  })
  const answer = await paid.text()
  expect(paid.status, answer).toBe(200)
  expect(answer).toContain("Your question is on its way to the seller.")
}

/** Whatever `promise` rejects with (fails the test when it resolves). */
const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`)
    },
    (error: unknown) => error
  )

beforeAll(async () => {
  const database = await freshDatabase()
  env = { ...database.env, SVC_BOOTSTRAP: "false" }
  dispose = database.dispose
  const seller = await setUpSellerWithReadKey(env)
  sellerToken = seller.token
  customAiId = seller.customAiId
  secondCustomAiId = seller.secondCustomAiId
  const free = ["--email", "free@example.com"]
  expect(
    (await svcJson(["accounts", "create", ...free, "--password", "long password 1", "--plan", "free"], env)).code
  ).toBe(0)
  const freeKey = await svcJson(["keys", "create", ...free], env)
  server = await startServer(env)
  baseUrl = server.baseUrl
  store = createStoreClient({ baseUrl, token: sellerToken, fetch: recordingFetch })
  readOnly = createStoreClient({ baseUrl, token: seller.readToken })
  freePlan = createStoreClient({ baseUrl, token: freeKey.body.token })
  const created = await store.products.create({ custom_ai_id: customAiId, price_cents: 1900 })
  product = created.product.id
  await store.products.publish({ id: product })
}, 120_000)

afterAll(async () => {
  if (server && server.process.exitCode === null) await server.stop()
  await dispose()
})

describe(`the store API client against svc serve on ${engineName}`, { timeout: 120_000 }, () => {
  it("answers who the key belongs to and the store's Custom AIs", async () => {
    const me = await store.identity.me()
    expect(me).toMatchObject({ ok: true, email: "seller@example.com" })
    const ais = await store.identity.customAis()
    expect(ais.custom_ais.map((ai) => ai.id).sort()).toEqual([customAiId, secondCustomAiId].sort())
  })

  it("reads and changes the store's settings; the checklist names the route and the server's settings page", async () => {
    const before = await store.settings.get()
    expect(before.settings.support_email).not.toBeNull()
    const cleared = await store.settings.update({ support_email: null, name: "Client Store" })
    expect(cleared.settings).toMatchObject({ support_email: null, name: "Client Store" })
    const checklist = (await store.products.get({ id: product })).publish_checklist
    expect(checklist).toEqual([
      {
        item: "support_email",
        message: `set the store's support email: PATCH /store-app/v1/settings with support_email, or the owner on ${baseUrl}/settings`
      }
    ])
    const refused = await rejection(readOnly.settings.update({ support_email: "help@example.com" }))
    expect(refused).toBeInstanceOf(StoreForbiddenError)
    const restored = await store.settings.update({ support_email: before.settings.support_email })
    expect(restored.settings).toEqual({ ...before.settings, name: "Client Store" })
    expect((await store.products.get({ id: product })).publish_checklist).toEqual([])
  })

  it("creates, reads, changes, publishes and lists products; a second product of one Custom AI is a conflict", async () => {
    const created = await store.products.create({ custom_ai_id: secondCustomAiId, price_cents: 4900 })
    expect(created.ok).toBe(true)
    const id = created.product.id
    expect((await store.products.get({ id })).product.id).toBe(id)
    const updated = await store.products.update({ id, title: "Second, renamed" })
    expect(updated.product.title).toBe("Second, renamed")
    expect((await store.products.publish({ id })).product.status).toBe("live")
    expect((await store.products.unpublish({ id })).product.status).toBe("off")
    expect((await store.products.cohorts({ id })).cohorts).toEqual([])
    const summaries = await store.products.summaries()
    expect(summaries.products.map((p) => p.id).sort()).toEqual([id, product].sort())
    const rows: Array<string> = []
    for await (const row of store.products.list({ limit: 1 })) rows.push(row.id)
    expect(rows.sort()).toEqual([id, product].sort())

    const refused = await store.sales.record({ event: "sale", product: id, email: "early@example.com" })
    expect(refused).toMatchObject({ ok: false, status: "rejected", reason: "product_not_live" })

    const conflict = await rejection(store.products.create({ custom_ai_id: secondCustomAiId }))
    expect(conflict).toBeInstanceOf(StoreConflictError)
    expect(conflict).toMatchObject({ status: 409, code: "conflict" })
  })

  it("records a sale once per order_id, and makes an order_id when none is given", async () => {
    const input = { event: "sale", product, email: "twice@example.com", order_id: "order-1" } as const
    expect(await store.sales.record(input)).toEqual({ ok: true, status: "granted" })
    expect(await store.sales.record(input)).toEqual({ ok: true, status: "duplicate" })

    sent.length = 0
    expect(await store.sales.record({ event: "sale", product, email: "fresh@example.com" })).toEqual({
      ok: true,
      status: "granted"
    })
    const [request] = sent
    const orderId = (request?.body as { order_id?: unknown } | undefined)?.order_id
    expect(orderId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const page = await store.sales.list({ product, email: "fresh@example.com" }).page()
    expect(page.data.map((sale) => sale.order_id)).toEqual([orderId])
    expect((await store.sales.get({ id: page.data[0]?.id ?? "" })).sale.buyer_email).toBe("fresh@example.com")
    expect((await store.sales.recent({ product })).sales.length).toBeGreaterThan(0)
  })

  it("pages through every sale with the iterator, one request per page", async () => {
    for (let i = 0; i < 5; i++) await store.sales.record({ event: "sale", product, email: `buyer${i}@example.com` })
    const everySale = (await store.sales.list({ product, limit: 100 }).page()).data.map((sale) => sale.id)
    expect(everySale.length).toBeGreaterThanOrEqual(5)

    sent.length = 0
    const iterated: Array<string> = []
    for await (const sale of store.sales.list({ product, limit: 2 })) iterated.push(sale.id)
    expect(iterated).toEqual(everySale)
    const pageCount = Math.ceil(everySale.length / 2)
    expect(sent.length).toBe(pageCount)
    expect(sent.map((request) => new URL(request.url).searchParams.get("limit"))).toEqual(Array(pageCount).fill("2"))
    expect(new URL(sent[1]?.url ?? "").searchParams.get("starting_after")).toBeTruthy()

    const sizes: Array<number> = []
    for await (const page of store.sales.list({ product, limit: 2 }).pages()) sizes.push(page.data.length)
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(everySale.length)
    expect(sizes.length).toBe(pageCount)

    sent.length = 0
    for await (const _ of store.sales.list({ product, limit: 2 })) break
    expect(sent.length).toBe(1)
    const first = await store.sales.list({ product, limit: 2 }).page()
    expect(first).toMatchObject({ ok: true, has_more: true })
    expect(first.data).toHaveLength(2)
  })

  it("makes, lists, reads and turns off discount codes, their checkout links on the server's address", async () => {
    const made = await store.discountCodes.create({ product, kind: "percent", value: 15, code: "Client-15" })
    expect(made).toMatchObject({ ok: true, code: "Client-15", checkout_url: `${baseUrl}/c/${product}?code=Client-15` })
    const random = await store.discountCodes.create({ product, kind: "amount", value: 2.5 })
    expect(random.discount_code).toMatchObject({ amount_off_cents: 250, active: true })

    const listed: Array<string> = []
    for await (const code of store.discountCodes.list({ product, limit: 1 })) listed.push(code.code)
    expect(listed.sort()).toEqual(["Client-15", random.code].sort())
    expect((await store.discountCodes.get({ id: "client-15" })).discount_code.id).toBe(made.discount_code.id)
    const disabled = await store.discountCodes.disable({ id: made.discount_code.id })
    expect(disabled.discount_code).toMatchObject({ code: "Client-15", active: false })

    expect(
      await rejection(store.discountCodes.create({ product, kind: "percent", value: 15, code: "CLIENT-15" }))
    ).toBeInstanceOf(StoreConflictError)
    expect(await rejection(store.discountCodes.get({ id: "NOPE-1" }))).toBeInstanceOf(StoreNotFoundError)
    const refused = await rejection(readOnly.discountCodes.create({ product, kind: "percent", value: 10 }))
    expect(refused).toBeInstanceOf(StoreForbiddenError)
    expect((await readOnly.discountCodes.list({ product }).page()).data).toHaveLength(2)
  })

  it("lists, reads and answers a paid question a buyer asked at checkout", async () => {
    const made = await store.products.create({ kind: "question", title: "Ask me", price_cents: 2500 })
    const questionProduct = made.product.id
    await store.products.publish({ id: questionProduct })
    await payAndAsk(baseUrl, questionProduct, "buyer-q@example.com", "Which plan suits a team of three?")

    const open: Array<string> = []
    for await (const question of store.paidQuestions.list({ product: questionProduct, status: "open", limit: 1 })) {
      expect(question).toMatchObject({ buyer_email: "buyer-q@example.com", status: "open", answer: null, test: true })
      open.push(question.id)
    }
    expect(open).toHaveLength(1)
    const id = open[0] ?? ""
    expect((await store.paidQuestions.get({ id })).question).toMatchObject({
      id,
      text: "Which plan suits a team of three?",
      amount_cents: 2500
    })
    // A test purchase is left out of the New Paid Question feed; a read-only key reads but cannot answer.
    expect(await store.paidQuestions.recent({ product: questionProduct })).toEqual({ ok: true, questions: [] })
    expect((await readOnly.paidQuestions.list({ product: questionProduct }).page()).data.map((q) => q.id)).toEqual([id])
    expect(await rejection(readOnly.paidQuestions.answer({ id, answer: "Team" }))).toBeInstanceOf(StoreForbiddenError)

    const empty = await rejection(store.paidQuestions.answer({ id, answer: "  " }))
    expect(empty).toBeInstanceOf(StoreInvalidError)
    expect(empty).toMatchObject({ status: 422 })
    expect(await rejection(store.paidQuestions.get({ id: "pq_nope" }))).toBeInstanceOf(StoreNotFoundError)

    const answered = await store.paidQuestions.answer({ id, answer: "The Team plan." })
    expect(answered).toMatchObject({ ok: true, question: { id, status: "answered", answer: "The Team plan." } })
    expect((await store.paidQuestions.list({ product: questionProduct, status: "open" }).page()).data).toEqual([])
    expect((await store.paidQuestions.get({ id })).question.answered_at).toEqual(answered.question.answered_at)
  })

  it("lists reviews, reads one, hides and shows it; the review feeds answer", async () => {
    const imported = await fetch(`${baseUrl}/v1/tools/svc_import_product_reviews`, {
      method: "POST",
      headers: { authorization: `Bearer ${sellerToken}`, "content-type": "application/json" },
      body: JSON.stringify({ productId: product, reviews: [{ text: "Worth every minute.", name: "Rae", rating: 5 }] })
    })
    expect(imported.status, await imported.clone().text()).toBe(200)
    const listed: Array<string> = []
    for await (const review of store.reviews.list({ product, origin: "imported" })) {
      expect(review).toMatchObject({ origin: "imported", name: "Rae", rating: 5, shown: true })
      listed.push(review.id)
    }
    expect(listed).toHaveLength(1)
    const id = listed[0] ?? ""
    expect((await store.reviews.get({ id })).review.text).toBe("Worth every minute.")
    expect((await store.reviews.update({ id, shown: false })).review).toMatchObject({ id, shown: false })
    expect((await store.reviews.update({ id, shown: true })).review).toMatchObject({ id, shown: true })
    // Imported testimonials are never events of the feeds; a read-only key reads but cannot hide.
    expect(await store.reviews.recent({ product })).toEqual({ ok: true, reviews: [] })
    expect(await store.reviews.testimonials({})).toEqual({ ok: true, testimonials: [] })
    expect(await rejection(readOnly.reviews.update({ id, shown: false }))).toBeInstanceOf(StoreForbiddenError)
    expect(await rejection(store.reviews.get({ id: "rev_nope" }))).toBeInstanceOf(StoreNotFoundError)
    expect(await rejection(store.reviews.list({ origin: "nobody" as "buyer" }).page())).toBeInstanceOf(
      StoreBadRequestError
    )
  })

  it("adds customers, finds them, lists them and takes access away", async () => {
    expect(await store.customers.add({ product, email: "pat@example.com", send_email: false })).toEqual({
      ok: true,
      status: "added"
    })
    expect((await store.customers.find({ email: "pat@example.com" })).customers).toHaveLength(1)
    expect((await store.customers.get({ email: "pat@example.com" })).customer).toMatchObject({
      email: "pat@example.com"
    })
    const listed: Array<string> = []
    for await (const customer of store.customers.list({ product, has_access: true })) listed.push(customer.email)
    expect(listed).toContain("pat@example.com")
    expect((await store.customers.recent({ product })).customers.length).toBeGreaterThan(0)
    expect(await store.customers.removeAccess({ product, email: "pat@example.com" })).toEqual({
      ok: true,
      status: "removed"
    })
  })

  it("reads the membership, refund and cohort feeds", async () => {
    expect((await store.feeds.payments()).payments).toEqual([])
    expect((await store.feeds.changes()).changes).toEqual([])
    expect((await store.feeds.refunds()).refunds).toEqual([])
    expect((await store.feeds.cohortSignups({ product })).signups).toEqual([])
    expect((await store.emailList.signups()).signups).toEqual([])
    expect((await store.forms.completed({ quiz: "frm_none" })).responses).toEqual([])
  })

  it("lists forms, and refuses a decision on a form that does not exist with the typed 404", async () => {
    const forms = []
    for await (const form of store.forms.list({})) forms.push(form)
    expect(forms).toEqual([])
    await expect(store.forms.accept({ id: "frm_none", email: "pat@example.com" })).rejects.toMatchObject({
      status: 404
    })
  })

  it("manages webhooks and reads the event log page by page", async () => {
    expect((await store.webhooks.eventTypes()).ok).toBe(true)
    const created = await store.webhooks.create({ url: "https://example.com/hooks/svc", events: ["purchase.created"] })
    const id = created.webhook.id
    expect((await store.webhooks.get({ id })).webhook.url).toBe("https://example.com/hooks/svc")
    expect((await store.webhooks.update({ id, description: "books" })).webhook.description).toBe("books")
    expect((await store.webhooks.list()).webhooks.map((w) => w.id)).toContain(id)
    const rolled = await store.webhooks.rollSecret({ id })
    expect(rolled.webhook.secret).not.toBe(created.webhook.secret)
    expect((await store.webhooks.deliveries({ id }).page()).ok).toBe(true)

    const events: Array<string> = []
    for await (const event of store.webhooks.events({ limit: 3 })) events.push(event.id)
    expect(events.length).toBeGreaterThan(3)
    expect(new Set(events).size).toBe(events.length)
    const [first] = events
    expect((await store.webhooks.event({ id: first ?? "" })).event.id).toBe(first)
    expect(await store.webhooks.remove({ id })).toEqual({ ok: true, id, deleted: true })
  })

  it("subscribes and unsubscribes an instant hook", async () => {
    const subscribed = await store.hooks.subscribe({
      event: "new_sale",
      target_url: "https://hooks.zapier.com/hooks/standard/1/abc"
    })
    expect(subscribed.id).toBeTruthy()
    expect(await store.hooks.unsubscribe({ id: subscribed.id })).toEqual({ ok: true, id: subscribed.id, deleted: true })
  })

  it("throws the typed error of each status", async () => {
    const badCursor = await rejection(store.sales.list({ starting_after: "not a cursor" }).page())
    expect(badCursor).toBeInstanceOf(StoreBadRequestError)
    expect(badCursor).toMatchObject({ status: 400, code: "bad_request" })

    const unknownKey = createStoreClient({ baseUrl, token: "svc_pat_not_a_key" })
    const unauthorized = await rejection(unknownKey.identity.me())
    expect(unauthorized).toBeInstanceOf(StoreUnauthorizedError)
    expect(unauthorized).toMatchObject({ status: 401, code: "unauthorized" })

    const planRequired = await rejection(freePlan.identity.me())
    expect(planRequired).toBeInstanceOf(StorePlanRequiredError)
    expect(planRequired).toMatchObject({ status: 402, code: "plan_required" })

    const missing = await rejection(store.products.get({ id: "prod_missing" }))
    expect(missing).toBeInstanceOf(StoreNotFoundError)
    expect(missing).toBeInstanceOf(StoreApiError)
    expect(missing).toMatchObject({ status: 404, code: "not_found" })

    const readOnlyChange = await rejection(readOnly.products.update({ id: product, title: "Nope" }))
    expect(readOnlyChange).toBeInstanceOf(StoreForbiddenError)
    expect(readOnlyChange).toMatchObject({ status: 403, code: "api_key_access" })
    expect((await readOnly.products.get({ id: product })).product.id).toBe(product)

    const invalid = await rejection(
      // @ts-expect-error `price` is not a product field (`price_cents` is): the types refuse it, as the server does
      store.products.update({ id: product, price: 5 })
    )
    expect(invalid).toBeInstanceOf(StoreInvalidError)
    expect(invalid).toMatchObject({ status: 422, code: "invalid_field" })
    expect((invalid as StoreInvalidError).errors.length).toBeGreaterThan(0)
  })

  it("throws a 429 it cannot wait out within the budget as StoreRateLimitedError, with the wait asked", async () => {
    await store.customers.add({ product, email: "mailed@example.com", send_email: false })
    const impatient = createStoreClient({ baseUrl, token: sellerToken, retry: { maxDelayMs: 1_000 } })
    expect(await impatient.customers.accessEmail({ product, email: "mailed@example.com" })).toEqual({
      ok: true,
      sent: true
    })
    const started = Date.now()
    const limited = await rejection(impatient.customers.accessEmail({ product, email: "mailed@example.com" }))
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(limited).toBeInstanceOf(StoreRateLimitedError)
    expect(limited).toMatchObject({ status: 429, code: "rate_limited" })
    expect((limited as StoreRateLimitedError).retryAfterSeconds).toBeGreaterThan(1)
  })
})
