/**
 * Webhooks: `verifyWebhook` checks a delivery's signature over its raw body, and `constructEvent` also returns its
 * typed event. Also as the `Webhooks` namespace, the name earlier releases used.
 */
export * from "./public.js"
export * as Webhooks from "./public.js"
