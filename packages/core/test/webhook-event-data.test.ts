import { describe, expect, it } from "@effect/vitest"
import * as OpenApi from "@effect/platform/OpenApi"
import { JSONSchema, Option, Schema, SchemaAST } from "effect"
import { StoreApi } from "../src/store-api/api.js"
import { WEBHOOK_EVENT_DATA, webhookEventSchema } from "../src/store-api/event-data.js"
import { WEBHOOK_EVENT_TYPES } from "../src/webhooks/event-types.js"
import { EVENT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from "../src/webhooks/policy.js"
import { sampleEventData } from "../src/store-api/sample-events.js"

interface WebhookOperation {
  readonly parameters: ReadonlyArray<{ readonly name: string }>
  readonly requestBody: {
    readonly content: {
      readonly "application/json": { readonly schema: { readonly properties: Record<string, unknown> } }
    }
  }
}

const now = new Date("2026-11-24T05:30:00.000Z")

// Exactly the schema's fields: one the schema does not name, or one it names and the data lacks, fails.
const decodeExactly = (schema: Schema.Schema.AnyNoContext, value: unknown) =>
  Schema.decodeUnknownEither(schema, { onExcessProperty: "error" })(value)

describe("the data contract of each webhook event type", () => {
  it("has one schema per event type, and none for a type that does not exist", () => {
    expect(Object.keys(WEBHOOK_EVENT_DATA).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort())
  })

  it.each(WEBHOOK_EVENT_TYPES.map((type) => [type]))("describes the sample of %s exactly", (type) => {
    const result = decodeExactly(WEBHOOK_EVENT_DATA[type], sampleEventData(type, now))
    expect(result._tag === "Right" ? "decoded" : String(result.left)).toBe("decoded")
  })

  it("refuses a field the schema does not name, and a named field that is missing", () => {
    const sample = sampleEventData("customer.created", now)
    expect(decodeExactly(WEBHOOK_EVENT_DATA["customer.created"], { ...sample, extra: 1 })._tag).toBe("Left")
    const { email: _email, ...withoutEmail } = sample
    expect(decodeExactly(WEBHOOK_EVENT_DATA["customer.created"], withoutEmail)._tag).toBe("Left")
  })

  it("types the envelope's `type` as the one literal of its schema", () => {
    const envelope = {
      id: "evt_1",
      type: "booking.created",
      created_at: now.toISOString(),
      store: { handle: "demo" },
      data: sampleEventData("booking.created", now)
    }
    expect(decodeExactly(webhookEventSchema("booking.created"), envelope)._tag).toBe("Right")
    expect(decodeExactly(webhookEventSchema("booking.cancelled"), envelope)._tag).toBe("Left")
  })
})

describe("the store API document's webhooks section", () => {
  // As a client reads it: the JSON text.
  const document = JSON.parse(JSON.stringify(OpenApi.fromApi(StoreApi))) as {
    readonly webhooks: Record<string, { readonly post: WebhookOperation }>
    readonly components: { readonly schemas: Record<string, unknown> }
  }

  it("is a valid OpenAPI 3.1 document with one post per event type", async () => {
    const { Validator } = await import("@seriousme/openapi-schema-validator")
    const result = await new Validator().validate(document)
    expect(result.errors ?? []).toEqual([])
    expect(Object.keys(document.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES])
  })

  it.each(WEBHOOK_EVENT_TYPES.map((type) => [type]))(
    "posts the %s envelope, its data derived from the schema",
    (type) => {
      const { post } = document.webhooks[type] ?? { post: undefined }
      const envelope = post?.requestBody.content["application/json"].schema
      expect(envelope?.properties.type).toEqual({ type: "string", enum: [type] })
      const name = Option.getOrThrow(SchemaAST.getIdentifierAnnotation(WEBHOOK_EVENT_DATA[type].ast))
      expect(envelope?.properties.data).toEqual({ $ref: `#/components/schemas/${name}` })
      const definitions: Record<string, JSONSchema.JsonSchema7> = {}
      const path = "#/components/schemas/"
      JSONSchema.fromAST(WEBHOOK_EVENT_DATA[type].ast, { definitions, definitionPath: path, target: "openApi3.1" })
      expect(document.components.schemas[name]).toEqual(definitions[name])
      expect(post?.parameters.map((p) => p.name)).toEqual([
        SIGNATURE_HEADER,
        TIMESTAMP_HEADER,
        EVENT_HEADER,
        EVENT_ID_HEADER
      ])
    }
  )
})
