// The public names of the webhooks part, in one module so that they are exported both flat and as `Webhooks`.
export {
  constructEvent,
  isWebhookEventType,
  type UnknownWebhookEvent,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType
} from "./events.js"
export {
  EVENT_HEADER,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  type WebhookHeaders
} from "./headers.js"
export {
  type VerifiedWebhook,
  type VerifyOptions,
  verifyWebhook,
  type WebhookEnvelope,
  type WebhookRejection,
  WebhookVerificationError
} from "./verify.js"
