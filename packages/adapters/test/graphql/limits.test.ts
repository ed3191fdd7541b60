/**
 * The GraphQL face's abuse limits with the default settings: deep, wide, aliased, long and cyclic documents, big
 * batches and bodies, and malformed requests are each refused with a clear GraphQL error, never a 500.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { type GraphqlBody, postGraphql } from "./support.js"

/** `__type` nests through `ofType` as deep as we like, whatever the rest of the schema holds. */
const nestedOfType = (levels: number) =>
  `{ __type(name: "Query") { fields { type { ${"ofType { ".repeat(levels)}name${" }".repeat(levels)} } } } }`

/** Five fragments, each spreading the one below ten times: 10^4 `__typename`s from a couple of hundred tokens. */
const fragmentFanOut = (() => {
  const levels = [0, 1, 2, 3, 4]
  const fragments = levels.map((level) =>
    level === 0
      ? "fragment F0 on Query { __typename }"
      : `fragment F${level} on Query { ${`...F${level - 1} `.repeat(10)}}`
  )
  return `{ ...F4 } ${fragments.join(" ")}`
})()

const firstError = (body: GraphqlBody) => body.errors?.[0]

layer(TestApp.layer, { timeout: "120 seconds", excludeTestServices: true })("GraphQL abuse limits", (it) => {
  const refused = (query: string) =>
    Effect.gen(function* () {
      const { url, signUp } = yield* TestApp
      const { token } = yield* signUp({})
      return yield* Effect.promise(() => postGraphql(url, token, { query }))
    })

  describe("documents", () => {
    it.effect("a query within the limits runs", () =>
      Effect.gen(function* () {
        const answer = yield* refused(nestedOfType(6))
        expect(answer.status).toBe(200)
        expect(answer.body.errors).toBeUndefined()
      })
    )

    it.effect("a query deeper than 10 is refused with the depth it has", () =>
      Effect.gen(function* () {
        const answer = yield* refused(nestedOfType(10))
        expect(answer.status).toBe(400)
        expect(answer.body.data).toBeUndefined()
        expect(firstError(answer.body)?.message).toMatch(/^Query depth limit of 10 exceeded, found 1[0-9]\.$/)
        expect(firstError(answer.body)?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED")
      })
    )

    it.effect("a wide query (fragments fanning out) is refused over the cost budget", () =>
      Effect.gen(function* () {
        const answer = yield* refused(fragmentFanOut)
        expect(answer.status).toBe(400)
        expect(firstError(answer.body)?.message).toMatch(/^Query Cost limit of 5000 exceeded, found \d+\.$/)
        expect(firstError(answer.body)?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED")
      })
    )

    it.effect("more than 15 aliases are refused (aliases of __typename, which clients add everywhere, are free)", () =>
      Effect.gen(function* () {
        const free = Array.from({ length: 20 }, (_, i) => `t${i}: __typename`).join(" ")
        const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: __type(name: "Query") { name }`).join(" ")
        const within = yield* refused(`{ ${free} ${aliases.split(" a15:")[0]} }`)
        expect(within.status).toBe(200)
        expect(within.body.errors).toBeUndefined()
        const answer = yield* refused(`{ ${aliases} }`)
        expect(answer.status).toBe(400)
        expect(firstError(answer.body)?.message).toBe("Aliases limit of 15 exceeded, found 16.")
        expect(firstError(answer.body)?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED")
      })
    )

    it.effect("a document over 2000 tokens is refused while parsing", () =>
      Effect.gen(function* () {
        const answer = yield* refused(`{ ${"__typename ".repeat(2_100)}}`)
        expect(answer.status).toBe(400)
        expect(firstError(answer.body)?.message).toMatch(/Token limit of 2000 exceeded/)
        expect(firstError(answer.body)?.extensions?.code).toBe("GRAPHQL_PARSE_FAILED")
      })
    )

    it.effect("cyclic fragments are refused by validation", () =>
      Effect.gen(function* () {
        const answer = yield* refused("{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }")
        expect(answer.status).toBe(400)
        expect(answer.body.errors?.map((error) => error.message)).toContain(
          'Cannot spread fragment "A" within itself via "B".'
        )
      })
    )
  })

  describe("requests", () => {
    it.effect("a batch of more than 10 operations is refused; one of 10 runs", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp({})
        const batch = (size: number) => Array.from({ length: size }, () => ({ query: "{ __typename }" }))
        const over = yield* Effect.promise(() => postGraphql(url, token, batch(11)))
        expect(over.status).toBeGreaterThanOrEqual(400)
        expect(over.status).toBeLessThan(500)
        expect(firstError(over.body)?.message).toMatch(/Batching is limited to 10 operations per request/)
        const within = yield* Effect.promise(() => postGraphql(url, token, batch(10)))
        expect(within.status).toBe(200)
        expect(within.body).toHaveLength(10)
      })
    )

    it.effect("a 2 MiB body answers 413 before GraphQL sees it", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp({})
        const answer = yield* Effect.promise(() =>
          postGraphql(url, token, { query: `{ __typename } # ${"x".repeat(2 * 1024 * 1024)}` })
        )
        expect(answer.status).toBe(413)
        expect(firstError(answer.body)?.extensions?.code).toBe("PAYLOAD_TOO_LARGE")
      })
    )

    it.effect("a GET with a query string longer than Node's header limit is refused, not a 500", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp({})
        const query = encodeURIComponent(`{ __typename } # ${"x".repeat(100_000)}`)
        const response = yield* Effect.promise(() =>
          fetch(`${url}/graphql?query=${query}`, {
            headers: { authorization: `Bearer ${token}`, accept: "application/graphql-response+json" }
          })
        )
        expect(response.status).toBe(431)
      })
    )

    it.effect("malformed JSON, an unparsable query, an unknown field and a wrong variable are 4xx GraphQL errors", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp({})
        const malformed = yield* Effect.promise(() => postGraphql(url, token, "{not json"))
        expect(malformed.status).toBe(400)
        expect(firstError(malformed.body)?.message).toBeTruthy()

        const unparsable = yield* Effect.promise(() => postGraphql(url, token, { query: "{ viewer { " }))
        expect(unparsable.status).toBe(400)
        expect(firstError(unparsable.body)?.message).toMatch(/^Syntax Error/)
        expect(firstError(unparsable.body)?.extensions?.code).toBe("GRAPHQL_PARSE_FAILED")

        const unknown = yield* Effect.promise(() => postGraphql(url, token, { query: "{ noSuchField }" }))
        expect(unknown.status).toBe(400)
        expect(firstError(unknown.body)?.message).toBe('Cannot query field "noSuchField" on type "Query".')

        const wrongVariable = yield* Effect.promise(() =>
          postGraphql(url, token, {
            query: "query Named($name: String!) { __type(name: $name) { name } }",
            variables: { name: 5 }
          })
        )
        expect(wrongVariable.status).toBe(400)
        expect(firstError(wrongVariable.body)?.message).toMatch(/Variable "\$name" got invalid value 5/)

        const noQuery = yield* Effect.promise(() => postGraphql(url, token, { variables: {} }))
        expect(noQuery.status).toBe(400)
        expect(firstError(noQuery.body)?.message).toBeTruthy()
      })
    )

    it.effect("introspection is on by default, with the field hints graphql gives", () =>
      Effect.gen(function* () {
        const introspection = yield* refused("{ __schema { queryType { name } } }")
        expect(introspection.body.data).toEqual({ __schema: { queryType: { name: "Query" } } })
        const typo = yield* refused("{ viewe { plan } }")
        expect(firstError(typo.body)?.message).toMatch(/Did you mean "viewer"\?/)
      })
    )
  })
})
