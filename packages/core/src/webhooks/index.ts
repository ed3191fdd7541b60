/**
 * Webhooks: the `Webhooks` service, the delivery queue and worker, the `HttpSender` port, envelopes and policy; the
 * automation tool's instant hooks (`InstantHooks`, their repository port and push worker); and the callbacks of its
 * "Ask a Custom AI" step (`AskCallbacks`, their queue port and worker).
 */
export {
  type AddressRefusal,
  checkReceiverUrl,
  isLoopbackHost,
  isPublicAddress,
  normalizedReceiverUrl,
  refusalMessage
} from "./address.js"
export { RollSecretBody, TestWebhookBody, WebhooksApiGroup } from "./api.js"
export type { AttemptOutcome, AttemptResult, LoggedAttempt, SignedSend } from "./attempt.js"
export { envelopeAround, envelopeBody, type WebhookEnvelope } from "./envelope.js"
export { isWebhookEventType, WEBHOOK_EVENT_GROUPS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./event-types.js"
export {
  DELIVERY_DEADLINE_MS,
  DELIVERY_WAKE_CHANNEL,
  DISABLE_AFTER_FAILING_MS,
  EVENT_HEADER,
  EVENT_ID_HEADER,
  MAX_ATTEMPTS,
  MAX_WEBHOOKS_PER_WORKSPACE,
  RETENTION_MS,
  RETRY_DELAYS_MS,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER
} from "./policy.js"
export {
  HttpSender,
  type OutgoingRequest,
  SendFailed,
  SendFailureReason,
  type SendOutcome,
  WebhookSamples
} from "./ports.js"
export {
  type AttemptRecord,
  type ClaimedDelivery,
  type ClaimRequest,
  DeliveryQueue,
  type DeliveryTrigger,
  type DisabledWebhook,
  type FinishedDelivery,
  type NextStep,
  type PurgedBatch
} from "./queue.js"
export { WebhooksRepo } from "./repo.js"
export {
  AttemptRow,
  type AttemptView,
  type DeliveryState,
  type DisabledReason,
  EventEnvelope,
  EventTypeGroups,
  type StoredEvent,
  type Webhook,
  type WebhookChanges,
  WebhookRow,
  WebhookWithSecret
} from "./schema.js"
export { type SealedSecrets, WebhookSecrets } from "./secrets.js"
export { type EventsQuery, type NewWebhook, type ReceiverPolicy, type WebhookPatch, Webhooks } from "./service.js"
export type {
  EventTypeGroup,
  LoggedEvent,
  RequeuedDelivery,
  RolledSecret,
  TestSend,
  WebhookWithSecretValue
} from "./webhook-view.js"
export {
  attemptJson,
  createdWebhookApiAnswer,
  deliveryPageJson,
  eventApiAnswer,
  eventPageJson,
  eventTypesApiAnswer,
  removedWebhookApiAnswer,
  resentDeliveryApiAnswer,
  rolledSecretApiAnswer,
  testSendApiAnswer,
  webhookApiAnswer,
  webhookJson,
  webhookListApiAnswer,
  webhookWithSecretJson
} from "./webhook-json.js"
export { readDeliveriesQuery, readEventsQuery } from "./webhook-query.js"
export {
  claimDue,
  deliverClaimed,
  type EndedDelivery,
  MAX_RETRY_AFTER_MS,
  RETRY_JITTER,
  recordEnded,
  retryDelayMs,
  sendClaimed
} from "./delivery.js"
export {
  countDeliveries,
  type DeliveryMetricOutcome,
  recordDeliveryTime,
  webhookDeliveries,
  webhookDeliverySeconds
} from "./metrics.js"
export {
  DEFAULT_DELIVERY_WORKER,
  DELIVERY_PURGE_BATCH,
  deliverDue,
  type DeliveryWorkerOptions,
  purgeExpiredDeliveries,
  runDeliveryWorker,
  WebhookPurgeLive,
  WebhookWorkerLive
} from "./worker.js"
export {
  checkHookTarget,
  type ClaimedHook,
  type CreateResult,
  DEFAULT_INSTANT_HOOK_HOSTS,
  DEFAULT_INSTANT_HOOK_INTERVAL_MS,
  DROP_AFTER_FAILING_MS,
  type FeedEntry,
  type FeedPosition,
  type FeedSelector,
  IDS_PER_PUSH,
  INSTANT_HOOK_EVENT_NAMES,
  INSTANT_HOOK_EVENTS,
  type InstantHook,
  type InstantHookEvent,
  type InstantHookEventName,
  type InstantHookPolicy,
  InstantHooks,
  InstantHooksApiGroup,
  InstantHooksRepo,
  type InstantHookWorkerOptions,
  InstantHookWorkerLive,
  isHookHost,
  isInstantHookEvent,
  MAX_INSTANT_HOOKS_PER_STORE,
  type NewInstantHook,
  PUSH_DEADLINE_MS,
  PUSH_LEASE_MS,
  pushHook,
  PUSHES_PER_ROUND,
  pushRound,
  type PushOutcome,
  type PushResult,
  runInstantHookWorker,
  SETTLE_MS
} from "./instant-hooks/index.js"
export {
  ASK_CALLBACK_ANSWER_WAIT_MS,
  ASK_CALLBACK_DEADLINE_MS,
  ASK_CALLBACK_MAX_ATTEMPTS,
  ASK_CALLBACK_RETENTION_MS,
  ASK_CALLBACK_RETRY_DELAYS_MS,
  type AskCallbackBody,
  type AskCallbackClaim,
  AskCallbackQueue,
  AskCallbacks,
  type AskCallbackState,
  type AskCallbackStatus,
  type AskCallbackStep,
  AskCallbackWorkerLive,
  type AskCallbackWorkerOptions,
  type AskWithCallbackAnswer,
  type AskWithCallbackInput,
  type ClaimedAskCallback,
  DEFAULT_ASK_CALLBACK_WORKER,
  deliverAskCallback,
  type NewAskCallback,
  runAskCallbackWorker,
  runDueAskCallbacks
} from "./ask-callbacks/index.js"
/** Which events of the log a caller may follow (the GraphQL subscription), and where a resumed feed starts. */
export { resumePoint, visibleEvents } from "./event-visibility.js"
