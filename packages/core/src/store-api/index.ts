/** The store API's `HttpApi` contract (`StoreApi`), its errors and its bearer security. */
export { StoreApi } from "./api.js"
export { WEBHOOK_EVENT_DATA, type WebhookEventData, webhookEventSchema } from "./event-data.js"
export {
  StoreBadRequest,
  StoreConflict,
  StoreFieldProblem,
  StoreForbidden,
  StoreInternal,
  StoreInvalid,
  StoreNotFound,
  StorePayloadTooLarge,
  StorePlanRequired,
  StoreRateLimited,
  StoreUnauthorized
} from "./errors.js"
export { storeApiNextSteps } from "./next-steps.js"
export { sampleEventData, WebhookSamplesLive } from "./sample-events.js"
export { CurrentStoreCaller, StoreAuth } from "./security.js"
