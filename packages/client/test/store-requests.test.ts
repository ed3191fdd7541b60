/**
 * The pure parts of the store API client: how a method's input becomes a request, which error class an error
 * answer becomes, and how a paged list walks its cursor. The calls themselves are tested against a real server in
 * packages/server/test/client-store.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { buildRequest } from "../src/store/endpoints.js"
import {
  StoreApiError,
  type StoreApiErrors,
  StoreBadRequestError,
  StoreForbiddenError,
  StoreInternalError,
  StoreInvalidError,
  StoreNotFoundError,
  StorePlanRequiredError,
  StoreRateLimitedError,
  StoreUnexpectedStatusError,
  storeApiError
} from "../src/store/errors.js"
import { paged } from "../src/store/pages.js"

describe("a store API request", () => {
  it("fills path parameters by name, encoded, and leaves them out of the query", () => {
    expect(buildRequest("get", "/customers/{email}", { email: "a+b@example.com" })).toEqual({
      method: "GET",
      path: "/store-app/v1/customers/a%2Bb%40example.com"
    })
    expect(buildRequest("get", "/webhooks/{id}/deliveries", { id: "wh_1", limit: 5 })).toEqual({
      method: "GET",
      path: "/store-app/v1/webhooks/wh_1/deliveries?limit=5"
    })
  })

  it("puts numbers and booleans on the query string as text and skips fields left undefined", () => {
    expect(
      buildRequest("get", "/customers", { limit: 10, has_access: false, product: undefined, tag: "vip list" })
    ).toEqual({ method: "GET", path: "/store-app/v1/customers?limit=10&has_access=false&tag=vip+list" })
  })

  it("sends the rest of a POST or PATCH as the body, and no body when nothing is left", () => {
    expect(buildRequest("patch", "/products/{id}", { id: "prod_1", title: "New" })).toEqual({
      method: "PATCH",
      path: "/store-app/v1/products/prod_1",
      body: { title: "New" }
    })
    expect(buildRequest("post", "/products/{id}/publish", { id: "prod_1" })).toEqual({
      method: "POST",
      path: "/store-app/v1/products/prod_1/publish"
    })
  })

  it("refuses a missing or empty path parameter instead of calling a wrong path", () => {
    expect(() => buildRequest("get", "/products/{id}", {})).toThrow(TypeError)
    expect(() => buildRequest("get", "/products/{id}", { id: "" })).toThrow(/needs id/)
  })
})

describe("a store API error answer", () => {
  it("becomes the class of its status, with the body's code and message", () => {
    const notFound = storeApiError(404, { ok: false, error: "not_found", message: "no product prod_9 in this store" })
    expect(notFound).toBeInstanceOf(StoreNotFoundError)
    expect(notFound).toBeInstanceOf(StoreApiError)
    expect(notFound).toMatchObject({ status: 404, code: "not_found", message: "no product prod_9 in this store" })
    expect(storeApiError(400, { error: "bad_request", message: "x" })).toBeInstanceOf(StoreBadRequestError)
    expect(storeApiError(402, { error: "plan_required", message: "x" })).toBeInstanceOf(StorePlanRequiredError)
    expect(storeApiError(500, { error: "internal", message: "request id r1" })).toBeInstanceOf(StoreInternalError)
  })

  it("carries the 403's reason as its code and the 422's field problems", () => {
    const forbidden = storeApiError(403, {
      ok: false,
      error: "forbidden",
      code: "api_key_access",
      message: "read only"
    })
    expect(forbidden).toBeInstanceOf(StoreForbiddenError)
    expect(forbidden.code).toBe("api_key_access")
    const invalid = storeApiError(422, {
      ok: false,
      error: "invalid_field",
      message: "bad fields",
      errors: [{ path: "price_cents", message: "too low" }, "not a problem"]
    })
    expect(invalid).toBeInstanceOf(StoreInvalidError)
    expect((invalid as StoreInvalidError).errors).toEqual([{ path: "price_cents", message: "too low" }])
  })

  it("reads a 429's wait from the body, else from Retry-After", () => {
    const fromBody = storeApiError(429, { error: "rate_limited", message: "slow down", retry_after_seconds: 42 })
    expect(fromBody).toBeInstanceOf(StoreRateLimitedError)
    expect((fromBody as StoreRateLimitedError).retryAfterSeconds).toBe(42)
    const fromHeader = storeApiError(429, { error: "rate_limited" }, new Headers({ "retry-after": "7" }))
    expect((fromHeader as StoreRateLimitedError).retryAfterSeconds).toBe(7)
    expect((storeApiError(429, undefined) as StoreRateLimitedError).retryAfterSeconds).toBeUndefined()
  })

  it.effect("is matched by Effect.catchTag on its class name, an undeclared status too", () =>
    Effect.gen(function* () {
      const failing = (status: number) =>
        Effect.tryPromise({
          try: () => Promise.reject(storeApiError(status, { error: "x", message: `answered ${status}` })),
          catch: (error) => error as StoreApiErrors
        })
      const matched = (status: number) =>
        failing(status).pipe(
          Effect.as("no failure"),
          Effect.catchTag("StoreNotFoundError", (e) => Effect.succeed(`not found: ${e.message}`)),
          Effect.catchTag("StoreRateLimitedError", (e) => Effect.succeed(`wait ${e.retryAfterSeconds ?? "?"}`)),
          Effect.catchTag("StoreUnexpectedStatusError", (e) => Effect.succeed(`other ${e.status}`)),
          Effect.catchAll((e) => Effect.succeed(`unmatched ${e._tag}`))
        )
      expect(yield* matched(404)).toBe("not found: answered 404")
      expect(yield* matched(429)).toBe("wait ?")
      expect(yield* matched(503)).toBe("other 503")
      expect(yield* matched(409)).toBe("unmatched StoreConflictError")
      expect(storeApiError(422, {})._tag).toBe("StoreInvalidError")
    })
  )

  it("answers a status the contract does not declare with its own class, coded by its status", () => {
    const proxy = storeApiError(503, "Service Unavailable")
    expect(proxy.constructor).toBe(StoreUnexpectedStatusError)
    expect(proxy).toBeInstanceOf(StoreApiError)
    expect(proxy).toMatchObject({ status: 503, code: "http_503", message: "the store API answered 503" })
  })
})

describe("a paged list", () => {
  // Rows 1..n in pages of two, cursors being the last row's number, as the server pages.
  const pagesOf = (n: number) => {
    const asked: Array<string | undefined> = []
    const fetchPage = async (after: string | undefined) => {
      asked.push(after)
      const start = after === undefined ? 0 : Number(after)
      const data = Array.from({ length: Math.max(0, Math.min(2, n - start)) }, (_, i) => start + i + 1)
      return { ok: true as const, data, has_more: start + 2 < n, next_cursor: String(start + data.length) }
    }
    return { asked, list: paged(fetchPage) }
  }

  it("yields every row, asking for each page with the previous page's next_cursor", async () => {
    const { asked, list } = pagesOf(5)
    const rows: Array<number> = []
    for await (const row of list) rows.push(row)
    expect(rows).toEqual([1, 2, 3, 4, 5])
    expect(asked).toEqual([undefined, "2", "4"])
  })

  it("asks for nothing until iterated, and for no more pages once the loop breaks", async () => {
    const { asked, list } = pagesOf(5)
    expect(asked).toEqual([])
    for await (const row of list) if (row === 2) break
    expect(asked).toEqual([undefined])
  })

  it("gives one page with page() and whole pages with pages()", async () => {
    const { asked, list } = pagesOf(3)
    expect((await list.page()).data).toEqual([1, 2])
    const sizes: Array<number> = []
    for await (const page of list.pages()) sizes.push(page.data.length)
    expect(sizes).toEqual([2, 1])
    expect(asked).toEqual([undefined, undefined, "2"])
  })

  it("stops at an empty page even if it claims more", async () => {
    let calls = 0
    const list = paged(async () => {
      calls++
      return { ok: true as const, data: [] as Array<number>, has_more: true, next_cursor: "same" }
    })
    for await (const _ of list) throw new Error("no rows expected")
    expect(calls).toBe(1)
  })
})
