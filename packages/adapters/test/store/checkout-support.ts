/** What the checkout's tests share: a seller whose store sells through the test processor, over the real app. */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { CustomAis } from "@svc/core/custom-ai"
import { StoreSetup } from "@svc/core/store"
import { Effect } from "effect"
import { Agent, fetch as undiciFetch } from "undici"
import { TestApp } from "../support/app.js"

/** A seller on Starter with a support email and the card processor connected (the test processor). */
export const checkoutSeller = Effect.gen(function* () {
  const app = yield* TestApp
  const user = yield* app.signUp({ plan: "starter" })
  const workspaceId = user.workspace.id
  yield* app.setUp(
    Effect.flatMap(StoreSetup, (s) =>
      s.set(workspaceId, { supportEmail: "help@example.com", cardProcessor: "connected" })
    )
  )
  const storeApi = (method: string, path: string, body?: unknown) =>
    Effect.promise(async () => {
      const response = await fetch(`${app.url}/store-app/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    })
  /** A live product with `fields`; answers its id. */
  const product = (fields: Record<string, unknown>) =>
    Effect.gen(function* () {
      const customAi = yield* app.setUp(
        Effect.orDie(Effect.flatMap(CustomAis, (s) => s.create(workspaceId, { name: "Coach" })))
      )
      const created = yield* storeApi("POST", "/products", { custom_ai_id: customAi.id, ...fields })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const id = (created.body.product as { id: string }).id
      const published = yield* storeApi("POST", `/products/${id}/publish`)
      expect(published.status, JSON.stringify(published.body)).toBe(200)
      return id
    })
  /** Calls a tool through its REST form: the answer's status and body. */
  const tool = (name: string, input: Record<string, unknown>) =>
    Effect.promise(async () => {
      const response = await fetch(`${app.url}/v1/tools/${name}`, {
        method: "POST",
        headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
        body: JSON.stringify(input)
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    })
  /** A live paid-question product with `fields`; answers its id. */
  const questionProduct = (fields: Record<string, unknown>) =>
    Effect.gen(function* () {
      const created = yield* storeApi("POST", "/products", { kind: "question", ...fields })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const id = (created.body.product as { id: string }).id
      const published = yield* storeApi("POST", `/products/${id}/publish`)
      expect(published.status, JSON.stringify(published.body)).toBe(200)
      return id
    })
  const rows = <A extends object>(query: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
    app.setUp(Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.orDie(query(sql))))
  const sales = rows(
    (sql) =>
      sql<Record<string, unknown>>`SELECT * FROM store_sales WHERE workspace_id = ${workspaceId} ORDER BY created_at`
  )
  const events = (type: string) =>
    rows(
      (sql) =>
        sql<{
          data: Record<string, unknown>
        }>`SELECT data FROM events WHERE workspace_id = ${workspaceId} AND type = ${type}`
    )
  const mail = rows(
    (sql) =>
      sql<{ recipient: string; kind: string }>`SELECT recipient, kind FROM mail_outbox
        WHERE workspace_id = ${workspaceId} ORDER BY created_at`
  )
  const access = rows(
    (sql) =>
      sql<{ email: string; state: string; how: string }>`SELECT email, state, how FROM store_access
        WHERE workspace_id = ${workspaceId} AND state <> 'none' ORDER BY email`
  )
  return { app, user, workspaceId, storeApi, tool, product, questionProduct, sales, events, mail, access }
})

/** The test processor's card that pays. */
export const CARD = { card_number: "4242 4242 4242 4242", card_expiry: "12/34", card_cvc: "123" }

type Seller = Effect.Effect.Success<typeof checkoutSeller>

/** The seller's outbox mails of one kind, oldest first. */
export const mailOf = (s: Seller, kind: string) =>
  s.app.setUp(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.orDie(sql<{ recipient: string; subject: string; body: string }>`SELECT recipient, subject, body
        FROM mail_outbox WHERE workspace_id = ${s.workspaceId} AND kind = ${kind} ORDER BY created_at`)
    )
  )

/** Buys `productId` at its checkout page with the test card, as `email` named `name`. */
export const buyWithCard = (s: Seller, productId: string, email: string, name: string) =>
  Effect.promise(async () => {
    const buyer = new Buyer(s.app.url)
    const page = `${s.app.url}/c/${productId}`
    const opened = await buyer.open(page)
    const sold = await buyer.post(opened.text, page, { ...CARD, email, name })
    await buyer.close()
    expect(sold.status, sold.text).toBe(200)
  })

/** Asks the app's `/graphql` as the seller: the answer's `data` and `errors`. */
export const graphqlOf = (s: Seller) => (query: string, variables: Record<string, unknown>) =>
  Effect.promise(async () => {
    const response = await fetch(`${s.app.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.user.token}`, "content-type": "application/json" },
      body: JSON.stringify({ query, variables })
    })
    return (await response.json()) as { data?: Record<string, unknown>; errors?: unknown }
  })

let counter = 0
/** A buyer email no other test of the file uses. */
export const fresh = (name: string) => `${name}-${++counter}@example.org`

/**
 * A buyer's browser: keeps its cookies, follows no redirects, and connects from its own loopback address (127.0.0.x)
 * so each buyer has the rate allowance a person at their own address would.
 */
export class Buyer {
  readonly cookies = new Map<string, string>()
  readonly dispatcher: Agent
  constructor(
    readonly origin: string,
    address = "127.0.0.1"
  ) {
    this.dispatcher = new Agent({ localAddress: address })
  }

  private async send(url: string, init: { method?: string; body?: string; headers?: Record<string, string> }) {
    const response = await undiciFetch(url, {
      method: init.method ?? "GET",
      redirect: "manual",
      dispatcher: this.dispatcher,
      headers: {
        ...init.headers,
        ...(this.cookies.size === 0
          ? {}
          : { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ") })
      },
      ...(init.body === undefined ? {} : { body: init.body })
    })
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";")
      const eq = pair.indexOf("=")
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim())
    }
    return { status: response.status, headers: response.headers, text: await response.text() }
  }

  open(url: string, referer?: string) {
    return this.send(url, referer === undefined ? {} : { headers: { referer } })
  }

  /** Posts the page's checkout form: its hidden fields, then `typed`. */
  post(page: string, action: string, typed: Record<string, string>) {
    const body = new URLSearchParams({ ...hiddenFields(page, action), ...typed })
    return this.send(action, {
      method: "POST",
      body: body.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: this.origin }
    })
  }

  close() {
    return this.dispatcher.close()
  }
}

const decode = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))

/** The hidden fields of the page's form posting to `action`. */
export const hiddenFields = (page: string, action: string) => {
  const forms = [...page.matchAll(/<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/g)]
  const form = forms.find((match) => match[1] === action)
  if (form === undefined) throw new Error(`no form posting to ${action} on the page:\n${page}`)
  const fields: Record<string, string> = {}
  for (const input of (form[2] ?? "").matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[input[1] ?? ""] = decode(input[2] ?? "")
  }
  return fields
}
