/**
 * `svc serve` hands the `SVC_GRAPHQL_*` settings to the GraphQL face: introspection and GraphiQL switched off,
 * tighter depth and batch limits; and it refuses to start on a setting that makes no sense.
 */
import { describe, expect, it } from "@effect/vitest"
import { engineName, freshDatabase } from "./support/environment.js"
import { useServer } from "./support/server-fixture.js"
import { startServer } from "./support/server-process.js"

const fixture = useServer({
  SVC_GRAPHQL_INTROSPECTION: "false",
  SVC_GRAPHQL_GRAPHIQL: "false",
  SVC_GRAPHQL_MAX_DEPTH: "3",
  SVC_GRAPHQL_MAX_BATCH: "2"
})

const bootstrapKey = (output: string) => /svc_pat_[0-9A-Za-z]{36}/.exec(output)?.[0] ?? ""

interface Answer {
  readonly status: number
  readonly body: {
    readonly data?: Record<string, unknown>
    readonly errors?: ReadonlyArray<{ readonly message: string; readonly extensions?: Record<string, unknown> }>
  }
}

const post = async (body: unknown): Promise<Answer> => {
  const response = await fetch(`${fixture.server.baseUrl}/graphql`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${bootstrapKey(fixture.server.output())}`,
      "content-type": "application/json",
      accept: "application/graphql-response+json"
    },
    body: JSON.stringify(body)
  })
  return { status: response.status, body: (await response.json()) as Answer["body"] }
}

const messages = (answer: Answer) => (answer.body.errors ?? []).map((error) => error.message)

describe(`svc serve with SVC_GRAPHQL_* settings on ${engineName}`, { timeout: 120_000 }, () => {
  it("refuses introspection and hides field hints, while ordinary queries run", async () => {
    const schema = await post({ query: "{ __schema { queryType { name } } }" })
    expect(schema.status).toBe(400)
    // graphql's rule names every field of an introspection type, `__schema` first.
    expect(messages(schema)[0]).toBe(
      'GraphQL introspection has been disabled, but the requested query contained the field "__schema".'
    )
    expect(schema.body.errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED")
    const type = await post({ query: '{ __type(name: "Query") { name } }' })
    expect(messages(type)[0]).toBe(
      'GraphQL introspection has been disabled, but the requested query contained the field "__type".'
    )

    const typo = await post({ query: "{ viewe { plan } }" })
    expect(typo.status).toBe(400)
    expect(messages(typo)).toEqual(['Cannot query field "viewe" on type "Query".'])

    const ordinary = await post({ query: "{ __typename viewer { plan } }" })
    expect(ordinary.status).toBe(200)
    expect(ordinary.body.data).toMatchObject({ __typename: "Query", viewer: { plan: expect.any(String) } })
  })

  it("applies the configured depth and batch limits", async () => {
    const deep = await post({ query: "{ viewer { workspaces { edges { node { id } } } } }" })
    expect(deep.status).toBe(400)
    expect(messages(deep)).toEqual(["Query depth limit of 3 exceeded, found 5."])
    const shallow = await post({ query: "{ viewer { credential { kind } } }" })
    expect(shallow.status).toBe(200)
    const batch = await post([{ query: "{ __typename }" }, { query: "{ __typename }" }, { query: "{ __typename }" }])
    expect(batch.status).toBeGreaterThanOrEqual(400)
    expect(batch.status).toBeLessThan(500)
    expect(JSON.stringify(batch.body)).toContain("Batching is limited to 2 operations per request")
  })

  it("does not open GraphiQL in a browser", async () => {
    const page = await fetch(`${fixture.server.baseUrl}/graphql`, { headers: { accept: "text/html" } })
    expect(page.headers.get("content-type") ?? "").not.toContain("text/html")
    expect(page.status).toBeGreaterThanOrEqual(400)
    expect(page.status).toBeLessThan(500)
  })

  it("will not start with a limit below 1", async () => {
    const database = await freshDatabase()
    try {
      const started = await startServer({ ...database.env, SVC_GRAPHQL_MAX_DEPTH: "0" }).then(
        async (server) => {
          await server.stop()
          return "started"
        },
        (error: unknown) => String(error)
      )
      expect(started).toContain("SVC_GRAPHQL_MAX_DEPTH must be at least 1")
    } finally {
      await database.dispose()
    }
  })
})
