import { describe, expect, it } from "@effect/vitest"
import type { EventRecord } from "../src/events/schema.js"
import { envelopeAround, envelopeBody, type WebhookEnvelope } from "../src/webhooks/envelope.js"

const event: EventRecord = {
  id: "evt_1",
  workspaceId: "ws_1",
  type: "purchase.created",
  createdAt: new Date("2026-11-24T05:30:00.000Z"),
  data: { product_id: "prod_1", buyer_email: 'a"b\\c@example.com', note: "zoë\n✓", nested: { list: [1, null] } }
}

describe("the webhook envelope's bytes", () => {
  it.each([["demo-store"], [null]])("are JSON.stringify of the envelope object (handle %s)", (handle) => {
    const envelope: WebhookEnvelope = {
      id: event.id,
      type: event.type,
      created_at: event.createdAt.toISOString(),
      store: { handle },
      data: event.data
    }
    expect(envelopeBody(event, handle)).toBe(JSON.stringify(envelope))
  })

  it("splice around the handle's JSON: head + handle + tail is the body", () => {
    const { head, tail } = envelopeAround(event)
    expect(`${head}"shop"${tail}`).toBe(envelopeBody(event, "shop"))
    expect(`${head}null${tail}`).toBe(envelopeBody(event, null))
  })
})
