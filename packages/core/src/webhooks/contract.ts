/**
 * What a webhook receiver needs of the core: the envelope's shape and the names of the signed headers. Its own
 * subpath (`@svc/core/webhook-contract`) so that verifying a delivery does not load the whole core.
 */
export type { WebhookEnvelope } from "./envelope.js"
export { EVENT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from "./policy.js"
