import { Context, type Effect, Schema } from "effect"
import type { WebhookEventType } from "./event-types.js"

/** One outgoing POST to a customer's address. */
export interface OutgoingRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** Sent byte for byte. */
  readonly body: string
}

/** What the receiver answered (any status: 3xx and errors are answers too, judged by the caller). */
export interface SendOutcome {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The start of the response body, at most the sender's cap. */
  readonly body: string
  readonly bodyTruncated: boolean
  readonly durationMs: number
  /** The checked address the connection was pinned to. */
  readonly address: string
}

/** Why nothing was answered. */
export const SendFailureReason = Schema.Literal(
  "invalid-url",
  "blocked-address",
  "dns",
  "connect",
  "tls",
  "timeout",
  "protocol"
)
export type SendFailureReason = typeof SendFailureReason.Type

/** The request could not be sent or got no answer in time. */
export class SendFailed extends Schema.TaggedError<SendFailed>()("SendFailed", {
  reason: SendFailureReason,
  message: Schema.String,
  durationMs: Schema.Number
}) {}

/**
 * Sends HTTP requests to addresses customers gave us. The one adapter that may reach the network
 * must refuse non-public addresses at every send, pin the connection to the checked address, never
 * follow redirects, and hold one deadline over DNS, connect, TLS and the body.
 */
export class HttpSender extends Context.Tag("svc/webhooks/HttpSender")<
  HttpSender,
  { readonly send: (request: OutgoingRequest) => Effect.Effect<SendOutcome, SendFailed> }
>() {}

/**
 * The `data` of a sample event of each type, for a test send, shaped like the real events. The events' payloads are
 * the store API's contract, so it gives them (`store-api/sample-events.ts`); webhooks only deliver them.
 */
export class WebhookSamples extends Context.Tag("svc/webhooks/WebhookSamples")<
  WebhookSamples,
  { readonly dataOf: (type: WebhookEventType, now: Date) => Readonly<Record<string, unknown>> }
>() {}
