/**
 * A webhook receiver: verifies each delivery over its raw bytes and types its event (`constructEvent`), skips repeats
 * by event id, and answers 2xx at once (do slow work after answering: the service waits at most 10 seconds).
 *
 *   SVC_WEBHOOK_SECRET=whsec_… PORT=4000 npx tsx examples/webhook-receiver.ts
 */
import { createServer } from "node:http"
import { constructEvent, type WebhookEvent, WebhookVerificationError } from "@svc/client"

const secret = process.env.SVC_WEBHOOK_SECRET
if (!secret) {
  console.error("set SVC_WEBHOOK_SECRET to the secret the service showed when you created the webhook")
  process.exit(2)
}
// While a rolled secret's grace period lasts, list both: SVC_WEBHOOK_SECRET=new,old
const secrets = secret.split(",")

// Event ids seen lately. A retry after a timeout or a resend repeats an id; act on it once. In
// production keep this in your database (a unique key on the event id) so it survives restarts.
const seen = new Map<string, number>()
const REMEMBER_MS = 7 * 86_400_000

// `event.type` narrows `event.data` to that type's fields.
const summary = (event: WebhookEvent): string => {
  switch (event.type) {
    case "purchase.created":
      return `${event.data.buyer_email} bought ${event.data.product_title} (${event.data.amount} ${event.data.currency})`
    case "customer.created":
      return `${event.data.email} now has ${event.data.product_title}`
    case "membership.cancelled":
      return `${event.data.buyer_email} cancelled; access ends ${event.data.access_ends_at ?? "when the period ends"}`
    case "unknown":
      // A type newer than this client: still verified, its data untyped.
      return `a ${event.received_type} event`
    default:
      return JSON.stringify(event.data)
  }
}

const server = createServer((request, response) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", async () => {
    // The raw bytes, exactly as sent: parsing and re-serialising JSON would change the signed text.
    const raw = Buffer.concat(chunks)
    try {
      const event = await constructEvent(raw, request.headers, secrets, { toleranceMs: 5 * 60_000 })
      const now = Date.now()
      for (const [id, at] of seen) if (now - at > REMEMBER_MS) seen.delete(id)
      if (seen.has(event.id)) {
        console.log(`duplicate ${event.id} ${event.type}`)
      } else {
        seen.set(event.id, now)
        console.log(`received ${event.id} ${event.type} ${summary(event)}`)
      }
      response.writeHead(204).end()
    } catch (error) {
      const reason = error instanceof WebhookVerificationError ? error.reason : "error"
      console.log(`refused ${reason}`)
      response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ refused: reason }))
    }
  })
})

server.listen(Number(process.env.PORT ?? 4000), "127.0.0.1", () => {
  const address = server.address()
  const port = typeof address === "object" && address ? address.port : 0
  console.log(`webhook receiver listening on http://127.0.0.1:${port}`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
