/**
 * The GraphQL face takes the same credentials as the other faces, with the same scopes and the same per-minute
 * limit: OAuth tokens by their scopes, and one call of the limit per root field.
 */
import { describe, expect, layer } from "@effect/vitest"
import { TOOL_CALLS_PER_MINUTE } from "@svc/core/limits"
import { Effect } from "effect"
import { automationClient } from "../oauth/automation-client.js"
import { TestApp } from "../support/app.js"
import { postGraphql } from "./support.js"

const CREATE_BOARD = `mutation { createBoard(input: { title: "From GraphQL" }) {
  __typename ... on CreateBoardPayload { board { title } } ... on ToolFailure { status message } } }`

layer(TestApp.layer, { timeout: "120 seconds", excludeTestServices: true })("GraphQL credentials", (it) => {
  describe("OAuth tokens", () => {
    it.effect("read write reaches reads and changes; read only reads; store alone is refused on the workspace", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp({})
        const { connect } = yield* Effect.promise(() => automationClient(app))
        const token = (scope: string) =>
          Effect.promise(() => connect(user, scope, undefined)).pipe(Effect.map((t) => t.access_token))

        const full = yield* token("read write")
        const viewer = yield* Effect.promise(() =>
          postGraphql(app.url, full, { query: "{ viewer { credential { kind } plan } }" })
        )
        expect(viewer.body.data?.viewer).toEqual({ credential: { kind: "oauth" }, plan: "starter" })
        const made = yield* Effect.promise(() => postGraphql(app.url, full, { query: CREATE_BOARD }))
        expect(made.body.data?.createBoard).toEqual({
          __typename: "CreateBoardPayload",
          board: { title: "From GraphQL" }
        })

        const read = yield* token("read")
        const reads = yield* Effect.promise(() => postGraphql(app.url, read, { query: "{ viewer { plan } }" }))
        expect(reads.body.data?.viewer).toEqual({ plan: "starter" })
        const refused = yield* Effect.promise(() => postGraphql(app.url, read, { query: CREATE_BOARD }))
        expect(refused.body.data?.createBoard).toMatchObject({ __typename: "ToolFailure", status: "forbidden" })

        const store = yield* token("store")
        const storeOnly = yield* Effect.promise(() => postGraphql(app.url, store, { query: "{ viewer { plan } }" }))
        expect(storeOnly.body.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", status: "forbidden" })
      })
    )
  })

  describe("the rate limit", () => {
    it.effect("each root field takes one call of the per-minute limit shared with the other faces", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp({})
        // Three root fields a request: the limit is spent after TOOL_CALLS_PER_MINUTE / 3 requests.
        const three = { query: "{ a: viewer { plan } b: viewer { plan } c: viewer { plan } }" }
        for (let i = 0; i < TOOL_CALLS_PER_MINUTE / 3; i++) {
          const answer = yield* Effect.promise(() => postGraphql(url, token, three))
          expect(answer.body.errors).toBeUndefined()
        }
        const limited = yield* Effect.promise(() => postGraphql(url, token, { query: "{ viewer { plan } }" }))
        expect(limited.status).toBe(429)
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
        expect(limited.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMITED")
        // The REST face shares the same minute.
        const rest = yield* Effect.promise(() =>
          fetch(`${url}/v1/tools/svc_list_tags`, { method: "POST", headers: { authorization: `Bearer ${token}` } })
        )
        expect(rest.status).toBe(429)
      })
    )
  })
})
