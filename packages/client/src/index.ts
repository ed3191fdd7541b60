/**
 * The typed client of svc.
 *
 * `Webhooks`: verifying a webhook delivery's signature, timestamp and body (`Webhooks.verifyWebhook`, or
 * `Webhooks.verifyWebhookEffect` as an Effect).
 */
export * as Webhooks from "./webhooks.js"
