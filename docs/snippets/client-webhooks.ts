// docs/client.md, "Webhooks": a receiver as a fetch handler (Node 20+, Deno, Bun, workers) that verifies each
// delivery and switches on its typed event.
import { constructEvent, type WebhookEvent, WebhookVerificationError } from "@svc/client"

// The secret shown when the webhook was created; while a rolled secret's grace period lasts, give [new, old].
const secrets = (process.env.SVC_WEBHOOK_SECRET ?? "").split(",")

const handle = async (event: WebhookEvent) => {
  switch (event.type) {
    case "purchase.created":
      // `event.data` is the sale: amount_cents, buyer_email, order_id, ...
      console.log(`${event.data.buyer_email} paid ${event.data.amount_cents} cents for ${event.data.product_title}`)
      break
    case "purchase.refunded":
      console.log(`order ${event.data.order_id ?? "?"} refunded at ${event.data.refunded_at}`)
      break
    case "membership.cancelled":
      console.log(`access ends ${event.data.access_ends_at ?? "at the end of the paid period"}`)
      break
    case "unknown":
      // A type added on the server after this client was built: verified, but its data is untyped.
      console.log(`ignoring ${event.received_type}`)
      break
    default:
      // The other types, each narrowed the same way when you add its case.
      break
  }
}

export const webhookHandler = async (request: Request): Promise<Response> => {
  // The raw bytes, exactly as sent: the signature covers them, not a re-serialised JSON.
  const rawBody = new Uint8Array(await request.arrayBuffer())
  try {
    const event = await constructEvent(rawBody, request.headers, secrets)
    // Answer at once (the server waits 10 s at most) and act once per event.id: a retry repeats it.
    queueMicrotask(() => void handle(event))
    return new Response(null, { status: 204 })
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      return Response.json({ refused: error.reason }, { status: 400 })
    }
    throw error
  }
}
