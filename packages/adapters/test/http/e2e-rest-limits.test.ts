import { Validator } from "@seriousme/openapi-schema-validator"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { errorOf, jsonOf, mcpPost, restCall, rpc } from "./requests.js"

const readOnly = { kind: "custom", parts: { boards: "read", workspace: "read" } } as const

layer(TestApp.layer, { timeout: "60 seconds", excludeTestServices: true })((it) => {
  describe("the REST form on real storage", () => {
    it.effect("writes and reads a note, and answers each failure with its HTTP code", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const { token } = yield* app.signUp()
        const send = (name: string, body: unknown, as: string = token) =>
          Effect.promise(async () => {
            const response = await app.handler(restCall(app.url, name, body, as))
            return { status: response.status, body: await jsonOf(response) }
          })

        const created = yield* send("svc_create_note", { title: "Ideas", markdown: "- one" })
        expect(created.status).toBe(200)
        const note = created.body.note as { id: string }
        const read = yield* send("svc_get_note_markdown", { noteId: note.id })
        expect(read).toMatchObject({
          status: 200,
          body: { ok: true, note: { id: note.id, title: "Ideas", markdown: "- one" } }
        })

        expect(yield* send("svc_get_note_markdown", { noteId: "note_missing" })).toMatchObject({
          status: 404,
          body: { ok: false, status: "not-found" }
        })
        expect(yield* send("svc_create_note", { markdown: 7, extra: true })).toMatchObject({
          status: 422,
          body: {
            ok: false,
            status: "invalid",
            errors: expect.arrayContaining([
              expect.objectContaining({ path: "markdown" }),
              expect.objectContaining({ path: "extra" })
            ])
          }
        })
        expect(yield* send("svc_create_note", "{broken")).toMatchObject({
          status: 400,
          body: { ok: false, status: "invalid" }
        })
        expect(yield* send("svc_no_such_tool", {})).toMatchObject({
          status: 404,
          body: { ok: false, status: "not-found" }
        })
        expect(yield* send("svc_create_note", { markdown: "x" }, "svc_pat_wrong")).toMatchObject({
          status: 401,
          body: { ok: false, status: "auth-expired" }
        })

        const reader = yield* app.signUp({ access: readOnly })
        expect(yield* send("svc_create_note", { markdown: "x" }, reader.token)).toMatchObject({
          status: 403,
          body: { ok: false, status: "forbidden" }
        })
      })
    )

    it.effect("publishes a valid OpenAPI 3.1 file with a POST for every served tool", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const document = yield* Effect.promise(() =>
          app.handler(new Request(`${app.url}/v1/openapi.json`)).then(jsonOf)
        )
        const validation = yield* Effect.promise(() => new Validator().validate(document))
        expect(validation.errors).toBeUndefined()
        expect(validation.valid).toBe(true)
        const { token } = yield* app.signUp()
        const listing = yield* Effect.promise(() =>
          app
            .handler(new Request(`${app.url}/v1/tools`, { headers: { authorization: `Bearer ${token}` } }))
            .then(jsonOf)
        )
        const paths = Object.keys(document.paths as object)
        for (const tool of listing.tools as Array<{ name: string }>) expect(paths).toContain(`/v1/tools/${tool.name}`)
      })
    )
  })

  describe("the tool-call rate limit", () => {
    it.effect("turns away the 121st call in a minute on either face, counting both together", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const { token } = yield* app.signUp()
        const args = { noteId: "note_missing" }
        const viaMcp = () =>
          app.handler(
            mcpPost(app.url, rpc("tools/call", { name: "svc_get_note_markdown", arguments: args }), { token })
          )
        const viaRest = () => app.handler(restCall(app.url, "svc_get_note_markdown", args, token))

        for (let call = 0; call < 60; call++) {
          const [mcp, rest] = yield* Effect.promise(() => Promise.all([viaMcp(), viaRest()]))
          expect([mcp.status, rest.status]).toEqual([200, 404])
        }

        const limitedMcp = yield* Effect.promise(viaMcp)
        expect(limitedMcp.status).toBe(429)
        expect(Number(limitedMcp.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
        expect((yield* Effect.promise(() => errorOf(limitedMcp))).code).toBe(-32000)

        const limitedRest = yield* Effect.promise(viaRest)
        expect(limitedRest.status).toBe(429)
        expect(Number(limitedRest.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
        // The REST failure shape, like every other REST refusal; `rate-limited` is this answer's own status.
        const limitedBody = yield* Effect.promise(() => jsonOf(limitedRest))
        expect(limitedBody).toEqual({ ok: false, status: "rate-limited", message: expect.any(String) })

        // Listing is not a tool call, and another key has a minute of its own.
        expect((yield* Effect.promise(() => app.handler(mcpPost(app.url, rpc("tools/list"), { token })))).status).toBe(
          200
        )
        const other = yield* app.signUp()
        const fresh = yield* Effect.promise(() =>
          app.handler(restCall(app.url, "svc_get_note_markdown", args, other.token))
        )
        expect(fresh.status).toBe(404)
      })
    )
  })
})
