import { Validator } from "@seriousme/openapi-schema-validator"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { BASE, makeFakeHandler, tokens } from "./fakes.js"
import { jsonOf, restCall } from "./requests.js"

const app = makeFakeHandler()
afterAll(() => app.dispose())
const send = (request: Request) => app.handler(request)
const get = (path: string, token?: string) =>
  send(new Request(`${BASE}${path}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }))

describe("POST /v1/tools/:name", () => {
  it("answers a success with 200 and { ok: true, ... }", async () => {
    const response = await send(restCall(BASE, "svc_create_note", { markdown: "# Hi" }, tokens.full))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true, note: { id: "note_1", markdown: "# Hi" } })
  })

  it("takes an empty body as {} and answers invalid input with 422 and per-field errors", async () => {
    const response = await send(restCall(BASE, "svc_create_note", undefined, tokens.full))
    expect(response.status).toBe(422)
    expect(await response.json()).toMatchObject({
      ok: false,
      status: "invalid",
      errors: [{ path: "markdown", message: "is required" }]
    })
  })

  it("answers a body that is not a JSON object with 400 invalid", async () => {
    for (const body of ["{oops", "[1,2]", "42"]) {
      const response = await send(restCall(BASE, "svc_create_note", body, tokens.full))
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ ok: false, status: "invalid" })
    }
  })

  it("maps tool failures to their HTTP codes: not-found 404, forbidden 403", async () => {
    const missing = await send(restCall(BASE, "svc_get_note_markdown", { noteId: "note_9" }, tokens.full))
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ ok: false, status: "not-found", message: "no note note_9" })
    const refused = await send(restCall(BASE, "svc_create_note", { markdown: "x" }, tokens.reader))
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ ok: false, status: "forbidden" })
  })

  it("answers an unknown tool with 404 not-found", async () => {
    const response = await send(restCall(BASE, "svc_no_such_tool", {}, tokens.full))
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({
      ok: false,
      status: "not-found",
      message: expect.stringContaining("svc_no_such_tool")
    })
  })

  it("answers a missing or wrong token with 401 auth-expired and the bearer challenge", async () => {
    for (const token of [undefined, "wrong"]) {
      const response = await send(restCall(BASE, "svc_create_note", { markdown: "x" }, token))
      expect(response.status).toBe(401)
      expect(response.headers.get("www-authenticate")).toContain(
        'resource_metadata="http://127.0.0.1:8787/.well-known/oauth-protected-resource"'
      )
      expect(await response.json()).toMatchObject({ ok: false, status: "auth-expired" })
    }
  })

  it("answers a defect with 500 and a request id, never the cause", async () => {
    const response = await send(restCall(BASE, "svc_list_tags", {}, tokens.full))
    expect(response.status).toBe(500)
    const body = await jsonOf(response)
    expect(body).toMatchObject({ ok: false, error: "internal" })
    expect(String(body.message)).toMatch(/request id [0-9a-f-]{36}/)
    expect(JSON.stringify(body)).not.toContain("connection refused")
  })
})

describe("GET /v1/tools", () => {
  it("lists the tools the key can use, with group, write flag and both schemas", async () => {
    const body = await jsonOf(await get("/v1/tools", tokens.full))
    expect(body.ok).toBe(true)
    const tools = body.tools as Array<Record<string, unknown>>
    expect(tools.find((tool) => tool.name === "svc_create_note")).toMatchObject({
      title: "Create note",
      group: "Boards & documents",
      write: true,
      annotations: { readOnlyHint: false },
      inputSchema: { type: "object" },
      outputSchema: { type: "object" }
    })
    expect(tools.find((tool) => tool.name === "svc_create_sticky_note")).toMatchObject({
      deprecated: true,
      aliasOf: "svc_create_note"
    })
    const reader = await jsonOf(await get("/v1/tools", tokens.reader))
    expect((reader.tools as Array<{ write: boolean }>).every((tool) => !tool.write)).toBe(true)
  })

  it("needs a token", async () => {
    expect((await get("/v1/tools")).status).toBe(401)
  })
})

describe("GET /v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document with one POST per tool and the failure codes", async () => {
    const response = await get("/v1/openapi.json")
    expect(response.status).toBe(200)
    const document = (await response.json()) as Record<string, unknown>
    const validation = await new Validator().validate(document)
    expect(validation.errors).toBeUndefined()
    expect(validation.valid).toBe(true)
    const paths = document.paths as Record<
      string,
      { post?: { responses: Record<string, unknown>; deprecated?: boolean } }
    >
    const create = paths["/v1/tools/svc_create_note"]?.post
    expect(Object.keys(create?.responses ?? {})).toEqual(
      expect.arrayContaining(["200", "401", "403", "404", "409", "422", "429", "502"])
    )
    expect(paths["/v1/tools/svc_create_sticky_note"]?.post?.deprecated).toBe(true)
    expect(document).toMatchObject({
      openapi: "3.1.0",
      servers: [{ url: BASE }],
      components: { securitySchemes: { bearerAuth: { scheme: "bearer" } } }
    })
  })
})
