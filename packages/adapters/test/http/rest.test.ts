import { Validator } from "@seriousme/openapi-schema-validator"
import { describe, expect, layer } from "@effect/vitest"
import { type Access, readOnlyAccess } from "@svc/core/auth"
import { Effect } from "effect"
import { FACES, type Face, sendVia, TestApp } from "../support/app.js"
import { DEFECT_DETAIL, dyingToolName, toolThatDies } from "../support/defect-tool.js"
import { jsonOf, restCall } from "./requests.js"

/** The real core plus one tool that dies, to show how a defect is answered (see defect-tool.ts). */
const app = TestApp.layerWith({ extraTools: toolThatDies })

/** What a REST test needs: the public base URL, a fresh account's key, and senders. */
interface Rest {
  readonly base: string
  readonly token: string
  /** Calls a tool with this client's key. */
  readonly call: (name: string, body: unknown) => Promise<Response>
  /** Calls a tool with the bearer token given, or with none. */
  readonly callAs: (token: string | undefined, name: string, body: unknown) => Promise<Response>
  /** A GET with the bearer token given, or with none. */
  readonly get: (path: string, token?: string | undefined) => Promise<Response>
}

/** A REST client holding the API key of a freshly opened account (full access unless `access` narrows it). */
const restClient = (face: Face, access?: Access) =>
  Effect.gen(function* () {
    const app = yield* TestApp
    const { url, signUp } = app
    const handler = sendVia(app, face)
    const { token } = yield* signUp(access === undefined ? {} : { access })
    const rest: Rest = {
      base: url,
      token,
      call: (name, body) => handler(restCall(url, name, body, token)),
      callAs: (as, name, body) => handler(restCall(url, name, body, as)),
      get: (path, as) =>
        handler(new Request(`${url}${path}`, as === undefined ? {} : { headers: { authorization: `Bearer ${as}` } }))
    }
    return rest
  })

/** Runs async test bodies over `face`, each with a REST client of its own. */
const restOver = (face: Face) => (body: (rest: Rest) => Promise<void>) =>
  Effect.flatMap(restClient(face), (rest) => Effect.promise(() => body(rest)))

layer(app, { excludeTestServices: true, timeout: "60 seconds" })((it) => {
  for (const face of FACES) {
    const withRest = restOver(face)
    const restClientOver = (access?: Access) => restClient(face, access)
    describe(`POST /v1/tools/:name (${face})`, () => {
      it.effect("answers a success with 200 and { ok: true, ... }, and the write is stored", () =>
        withRest(async ({ call }) => {
          const response = await call("svc_create_note", { markdown: "# Hi" })
          expect(response.status).toBe(200)
          const created = await jsonOf(response)
          expect(created).toMatchObject({
            ok: true,
            note: { id: expect.stringMatching(/^note_/), markdown: "# Hi", characters: 4 }
          })
          const { id } = created.note as { id: string }
          const read = await call("svc_get_note_markdown", { noteId: id })
          expect(read.status).toBe(200)
          expect(await read.json()).toEqual(created)
        })
      )

      it.effect("takes an empty body as {} and answers invalid input with 422 and per-field errors", () =>
        withRest(async ({ call }) => {
          const response = await call("svc_create_note", undefined)
          expect(response.status).toBe(422)
          expect(await response.json()).toMatchObject({
            ok: false,
            status: "invalid",
            errors: [{ path: "markdown", message: "is required" }]
          })
        })
      )

      it.effect("answers a body that is not a JSON object with 400 invalid", () =>
        withRest(async ({ call }) => {
          for (const body of ["{oops", "[1,2]", "42"]) {
            const response = await call("svc_create_note", body)
            expect(response.status).toBe(400)
            expect(await response.json()).toMatchObject({ ok: false, status: "invalid" })
          }
        })
      )

      it.effect("maps tool failures to their HTTP codes: not-found 404, forbidden 403", () =>
        Effect.gen(function* () {
          const [owner, reader] = yield* Effect.all([restClientOver(), restClientOver(readOnlyAccess)])
          yield* Effect.promise(async () => {
            const missing = await owner.call("svc_get_note_markdown", { noteId: "note_9" })
            expect(missing.status).toBe(404)
            expect(await missing.json()).toEqual({
              ok: false,
              status: "not-found",
              message: expect.stringContaining("no note note_9")
            })
            const refused = await reader.call("svc_create_note", { markdown: "x" })
            expect(refused.status).toBe(403)
            expect(await refused.json()).toMatchObject({ ok: false, status: "forbidden" })
          })
        })
      )

      it.effect("answers an unknown tool with 404 not-found", () =>
        withRest(async ({ call }) => {
          const response = await call("svc_no_such_tool", {})
          expect(response.status).toBe(404)
          expect(await response.json()).toMatchObject({
            ok: false,
            status: "not-found",
            message: expect.stringContaining("svc_no_such_tool")
          })
        })
      )

      it.effect("answers a missing or wrong token with 401 auth-expired and the bearer challenge", () =>
        withRest(async ({ callAs, base, token }) => {
          for (const wrong of [undefined, "wrong", `${token}x`]) {
            const response = await callAs(wrong, "svc_create_note", { markdown: "x" })
            expect(response.status).toBe(401)
            expect(response.headers.get("www-authenticate")).toContain(
              `resource_metadata="${base}/.well-known/oauth-protected-resource"`
            )
            expect(await response.json()).toMatchObject({ ok: false, status: "auth-expired" })
          }
        })
      )

      it.effect("answers a defect with 500 and a request id, never the cause", () =>
        Effect.flatMap(dyingToolName, (name) =>
          withRest(async ({ call }) => {
            const response = await call(name, {})
            expect(response.status).toBe(500)
            const body = await jsonOf(response)
            expect(body).toMatchObject({ ok: false, error: "internal" })
            expect(String(body.message)).toMatch(/request id [0-9a-f-]{36}/)
            expect(JSON.stringify(body)).not.toContain(DEFECT_DETAIL)
          })
        )
      )
    })

    describe(`GET /v1/tools (${face})`, () => {
      it.effect("lists the tools the key can use, with group, write flag and both schemas", () =>
        Effect.gen(function* () {
          const [owner, reader] = yield* Effect.all([restClientOver(), restClientOver(readOnlyAccess)])
          yield* Effect.promise(async () => {
            const body = await jsonOf(await owner.get("/v1/tools", owner.token))
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
            const readable = (await jsonOf(await reader.get("/v1/tools", reader.token))).tools as Array<{
              name: string
              write: boolean
            }>
            expect(readable.map((tool) => tool.name)).toContain("svc_get_note_markdown")
            expect(readable.every((tool) => !tool.write)).toBe(true)
          })
        })
      )

      it.effect("needs a token", () =>
        withRest(async ({ get }) => {
          expect((await get("/v1/tools")).status).toBe(401)
        })
      )
    })

    describe(`GET /v1/openapi.json (${face})`, () => {
      it.effect("is a valid OpenAPI 3.1 document with one POST per tool and the failure codes", () =>
        withRest(async ({ get, base }) => {
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
            servers: [{ url: base }],
            components: { securitySchemes: { bearerAuth: { scheme: "bearer" } } }
          })
        })
      )
    })
  }
})
