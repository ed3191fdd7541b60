/** What the checkout's tests share: a seller whose store sells through the test processor, over the real app. */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { CustomAis } from "@svc/core/custom-ai"
import { StoreSetup } from "@svc/core/store"
import { Effect } from "effect"
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
  return { app, user, workspaceId, storeApi, product, sales, events, mail, access }
})
