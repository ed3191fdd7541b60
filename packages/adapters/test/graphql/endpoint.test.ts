import { describe, expect, layer } from "@effect/vitest"
import { readOnlyAccess } from "@svc/core/auth"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { graphqlClient, postGraphql } from "./support.js"

layer(TestApp.layer, { timeout: "120 seconds", excludeTestServices: true })("GraphQL endpoint", (it) => {
  describe("viewer and tool mutations", () => {
    it.effect("a key reads its viewer and runs a write tool as a typed mutation", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp({})
        const client = graphqlClient(url, token)
        const viewer = yield* Effect.promise(() =>
          client.request<{ viewer: { plan: string; access: Array<{ part: string; level: string }> } }>(
            "{ viewer { plan access { part level } credential { kind } workspaces { edges { node { id } } } } }"
          )
        )
        expect(viewer.viewer.access).toContainEqual({ part: "boards", level: "edit" })
        const created = yield* Effect.promise(() =>
          client.request<{ createNote: Record<string, unknown> }>(
            `mutation { createNote(input: { markdown: "# Hello" }) {
               __typename
               ... on CreateNotePayload { ok note { id title } }
               ... on ToolFailure { status message }
             } }`
          )
        )
        expect(created.createNote).toMatchObject({
          __typename: "CreateNotePayload",
          ok: true,
          note: { title: "Hello" }
        })
        const invalid = yield* Effect.promise(() =>
          client.request<{ renameBoard: Record<string, unknown> }>(
            `mutation { renameBoard(input: { boardId: "brd_missing", title: "${"x".repeat(400)}" }) {
               __typename ... on ToolFailure { ok status message errors { path message } } } }`
          )
        )
        expect(invalid.renameBoard).toMatchObject({ __typename: "ToolFailure", ok: false, status: "invalid" })
        expect((invalid.renameBoard as { errors: Array<{ path: string }> }).errors[0]?.path).toBe("title")
      })
    )

    it.effect("a read-only key is refused on mutations with a ToolFailure", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp({ access: readOnlyAccess })
        const answer = yield* Effect.promise(() =>
          postGraphql(url, token, {
            query: `mutation { createBoard(input: { title: "No" }) { __typename ... on ToolFailure { status message } } }`
          })
        )
        expect(answer.status).toBe(200)
        expect(answer.body.data?.createBoard).toMatchObject({ __typename: "ToolFailure", status: "forbidden" })
      })
    )

    it.effect("no token answers 401 with the bearer challenge", () =>
      Effect.gen(function* () {
        const { url } = yield* TestApp
        const answer = yield* Effect.promise(() => postGraphql(url, undefined, { query: "{ viewer { plan } }" }))
        expect(answer.status).toBe(401)
        expect(answer.headers.get("www-authenticate")).toContain("Bearer")
        expect(answer.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED")
      })
    )
    it.effect("introspection needs no token; a mutation over GET is refused; a GET query runs", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const schema = yield* Effect.promise(() =>
          postGraphql(url, undefined, { query: "{ __schema { queryType { name } mutationType { name } } }" })
        )
        expect(schema.status).toBe(200)
        expect(schema.body.data).toEqual({
          __schema: { queryType: { name: "Query" }, mutationType: { name: "Mutation" } }
        })
        const { token } = yield* signUp({})
        const get = (query: string) =>
          fetch(`${url}/graphql?query=${encodeURIComponent(query)}`, {
            headers: { authorization: `Bearer ${token}`, accept: "application/json" }
          })
        const read = yield* Effect.promise(() => get("{ viewer { plan } }"))
        expect(read.status).toBe(200)
        expect(yield* Effect.promise(() => read.json())).toEqual({ data: { viewer: { plan: "starter" } } })
        const write = yield* Effect.promise(() => get(`mutation { createBoard(input: { title: "x" }) { __typename } }`))
        expect(write.status).toBe(405)
      })
    )
  })
})
