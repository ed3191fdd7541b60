import { expect, layer } from "@effect/vitest"
import { StorePayloadTooLarge } from "@svc/core/store-api"
import { Effect, Schema } from "effect"
import { DEFAULT_MAX_BODY_BYTES } from "../../src/http/index.js"
import { engineName } from "../support/database.js"
import { StoreTest } from "./support.js"

/** A JSON array nested `depth` levels deep, as text (no recursion in the test either). */
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`

const live = (call: StoreTest["Type"]["call"], token: string, customAiId: string) =>
  Effect.promise(async () => {
    const created = await call(token, "POST", "/products", { custom_ai_id: customAiId })
    const id = (created.body.product as { id: string }).id
    const published = await call(token, "POST", `/products/${id}/publish`)
    if (published.status !== 200) throw new Error(JSON.stringify(published.body))
    return id
  })

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `store API bad input (${engineName})`,
  (it) => {
    it.effect("refuses a body nested 10,000 levels deep with 422 before decoding it, on every write route", () =>
      Effect.gen(function* () {
        const { call, seller } = yield* StoreTest
        const s = yield* seller()
        const deep = nested(10_000)
        for (const path of ["/sales", "/customers", "/products", "/webhooks", "/customers/cohort"]) {
          const answer = yield* Effect.promise(() => call(s.token, "POST", path, `{"name":${deep}}`))
          expect(answer.status, path).toBe(422)
          expect(answer.body).toMatchObject({ ok: false, error: "invalid_field" })
          expect(String(answer.body.message)).toContain("nests deeper than 64 levels")
          expect((answer.body.errors as Array<{ path: string }>)[0]?.path).toMatch(/^name(\.0)+…?$/)
        }
        // Within the depth the tool faces allow, the route's own schema answers as before.
        const shallow = yield* Effect.promise(() => call(s.token, "POST", "/customers", `{"name":${nested(60)}}`))
        expect(shallow.status).toBe(422)
        expect(String(shallow.body.message)).not.toContain("nests deeper")
        const rollSecret = yield* Effect.promise(() =>
          call(s.token, "POST", "/webhooks/wh_missing/roll-secret", `{"grace_seconds":${deep}}`)
        )
        expect(rollSecret.status).toBe(422)
      })
    )

    it.effect("refuses a body over the cap with 413 naming the limit, whether announced or not", () =>
      Effect.gen(function* () {
        const { call, raw, seller } = yield* StoreTest
        const s = yield* seller()
        const big = JSON.stringify({ product: "p", email: "a@example.com", name: "x".repeat(DEFAULT_MAX_BODY_BYTES) })
        const announced = yield* Effect.promise(() => call(s.token, "POST", "/customers", big))
        expect(announced.status).toBe(413)
        expect(announced.body).toEqual({
          ok: false,
          error: "payload_too_large",
          message: expect.stringContaining(String(DEFAULT_MAX_BODY_BYTES))
        })
        // Streamed without a length: counted on the bytes received.
        const bytes = new TextEncoder().encode(big)
        const streamed = yield* Effect.promise(() =>
          raw(
            new Request("http://store.test/store-app/v1/customers", {
              method: "POST",
              headers: { "content-type": "application/json", authorization: `Bearer ${s.token}` },
              body: new ReadableStream({
                start(controller) {
                  for (let at = 0; at < bytes.length; at += 64 * 1024)
                    controller.enqueue(bytes.slice(at, at + 64 * 1024))
                  controller.close()
                }
              }),
              duplex: "half"
            } as RequestInit)
          )
        )
        expect(streamed.status).toBe(413)
        expect(((yield* Effect.promise(() => streamed.json())) as { message: string }).message).toContain(
          String(DEFAULT_MAX_BODY_BYTES)
        )
        // The OpenAPI document names the 413 on the routes that take a body, with the shape that is sent.
        const spec = (yield* Effect.promise(() =>
          raw(new Request("http://store.test/store-app/v1/openapi.json")).then((r) => r.json())
        )) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }
        expect(Object.keys(spec.paths["/store-app/v1/customers"]?.post?.responses ?? {})).toContain("413")
        expect(Schema.decodeUnknownSync(StorePayloadTooLarge)(announced.body)).toBeInstanceOf(StorePayloadTooLarge)
      })
    )

    it.effect("refuses a body that is not UTF-8 with 400 and stores nothing", () =>
      Effect.gen(function* () {
        const { call, raw, seller } = yield* StoreTest
        const s = yield* seller()
        const product = yield* live(call, s.token, s.customAiId)
        const json = (name: string) =>
          new TextEncoder().encode(JSON.stringify({ product, email: "bob@example.com", name, send_email: false }))
        // "Bo" + two bytes that are no UTF-8 + "b": the probe saw this stored as "Bo\uFFFD\uFFFDb".
        const text = json("Bo__b")
        const at = text.indexOf(0x5f)
        text.set([0xff, 0xfe], at)
        const refused = yield* Effect.promise(() =>
          raw(
            new Request("http://store.test/store-app/v1/customers", {
              method: "POST",
              headers: { "content-type": "application/json", authorization: `Bearer ${s.token}` },
              body: text
            })
          )
        )
        expect(refused.status).toBe(400)
        expect(yield* Effect.promise(() => refused.json())).toEqual({
          ok: false,
          error: "bad_request",
          message: "the request body is not UTF-8 text"
        })
        const missing = yield* Effect.promise(() => call(s.token, "GET", "/customers/bob@example.com"))
        expect(missing.status).toBe(404)
        // The same person in valid UTF-8 is stored as sent.
        const added = yield* Effect.promise(() =>
          raw(
            new Request("http://store.test/store-app/v1/customers", {
              method: "POST",
              headers: { "content-type": "application/json", authorization: `Bearer ${s.token}` },
              body: json("Bo\u00e9b")
            })
          )
        )
        expect(added.status).toBe(200)
        const found = yield* Effect.promise(() => call(s.token, "GET", "/customers/bob@example.com"))
        expect(JSON.stringify(found.body)).toContain("Bo\u00e9b")
      })
    )

    it.effect("quotes at most a short excerpt of a bad value in a 422, in message and errors", () =>
      Effect.gen(function* () {
        const { call, seller } = yield* StoreTest
        const s = yield* seller()
        const long = "y".repeat(900_000)
        const customer = yield* Effect.promise(() =>
          call(s.token, "POST", "/customers", { product: "p", email: "a@example.com", name: long })
        )
        expect(customer.status).toBe(422)
        const text = JSON.stringify(customer.body)
        expect(text.length).toBeLessThan(2_000)
        expect(customer.body.errors).toEqual([{ path: "name", message: expect.stringMatching(/200.*y…/) }])
        expect(String(customer.body.message)).toMatch(/^name: .*200.*y…/)

        // An email is echoed by core messages and by the schema's pattern check: both kept short.
        const email = `${"z".repeat(500_000)}@example.com`
        const badEmail = yield* Effect.promise(() => call(s.token, "POST", "/customers", { product: "p", email }))
        expect(badEmail.status).toBe(422)
        expect(JSON.stringify(badEmail.body).length).toBeLessThan(2_000)

        // Thousands of unknown fields: the answer lists a bounded number of them.
        const many = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`extra_${i}`, i]))
        const flood = yield* Effect.promise(() =>
          call(s.token, "POST", "/customers", { product: "p", email: "a@example.com", ...many })
        )
        expect(flood.status).toBe(422)
        expect((flood.body.errors as Array<unknown>).length).toBeLessThanOrEqual(50)
        expect(JSON.stringify(flood.body).length).toBeLessThan(10_000)

        // A long field name is a value the caller chose too.
        const key = "k".repeat(300_000)
        const oddKey = yield* Effect.promise(() =>
          call(s.token, "POST", "/customers", { product: "p", email: "a@example.com", [key]: 1 })
        )
        expect(oddKey.status).toBe(422)
        expect(JSON.stringify(oddKey.body).length).toBeLessThan(2_000)
      })
    )
  }
)
