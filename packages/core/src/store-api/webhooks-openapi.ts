import { JSONSchema } from "effect"
import { WEBHOOK_EVENT_TYPES } from "../webhooks/event-types.js"
import { webhookEventSchema } from "./event-data.js"
import { EVENT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from "../webhooks/policy.js"

type Json = Record<string, unknown>

const header = (name: string, description: string, schema: Json = { type: "string" }) => ({
  name,
  in: "header",
  required: true,
  description,
  schema
})

const signatureHeaders = [
  header(
    SIGNATURE_HEADER,
    "sha256=<hex HMAC-SHA256 of `<timestamp>.<raw body>` under the webhook's secret>; during a secret roll, two comma-separated signatures."
  ),
  header(TIMESTAMP_HEADER, "When this attempt was signed, in milliseconds since the epoch.", {
    type: "string",
    pattern: "^[0-9]{1,16}$"
  }),
  header(EVENT_HEADER, "The event type; the same as the body's `type`."),
  header(EVENT_ID_HEADER, "The event id; the same as the body's `id` on every attempt.")
]

/**
 * The document's OpenAPI 3.1 `webhooks`: one `post` per event type whose body is that type's envelope, derived from
 * the event data schemas (`WEBHOOK_EVENT_DATA`). The schemas they name are added to `schemas` (the document's
 * `components.schemas`), so a generated client types each event's `data`.
 */
export const webhooksSection = (schemas: Record<string, JSONSchema.JsonSchema7>): Json => {
  const webhooks: Json = {}
  for (const type of WEBHOOK_EVENT_TYPES) {
    const schema = JSONSchema.fromAST(webhookEventSchema(type).ast, {
      definitions: schemas,
      definitionPath: "#/components/schemas/",
      target: "openApi3.1"
    })
    webhooks[type] = {
      post: {
        operationId: `webhook.${type}`,
        summary: `The ${type} event, sent to each webhook subscribed to it.`,
        description:
          "Verify the signature over the raw body before parsing it, and answer any 2xx within 10 seconds; other answers are retried.",
        tags: ["webhooks"],
        // The receiver is not called with the store key: the signature is the credential.
        security: [],
        parameters: signatureHeaders,
        requestBody: { required: true, content: { "application/json": { schema } } },
        responses: { "2XX": { description: "Received; the delivery is done." } }
      }
    }
  }
  return webhooks
}
