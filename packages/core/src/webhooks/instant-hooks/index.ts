/** Instant hooks: the automation tool's push subscriptions to the store's feeds, and the worker that pushes them. */
export { InstantHooksApiGroup } from "./api.js"
export {
  type FeedSelector,
  INSTANT_HOOK_EVENT_NAMES,
  INSTANT_HOOK_EVENTS,
  type InstantHookEvent,
  type InstantHookEventName,
  isInstantHookEvent
} from "./events.js"
export {
  DEFAULT_INSTANT_HOOK_HOSTS,
  DEFAULT_INSTANT_HOOK_INTERVAL_MS,
  DROP_AFTER_FAILING_MS,
  IDS_PER_PUSH,
  MAX_INSTANT_HOOKS_PER_STORE,
  PUSH_DEADLINE_MS,
  PUSH_LEASE_MS,
  PUSHES_PER_ROUND,
  SETTLE_MS
} from "./policy.js"
export {
  type ClaimedHook,
  type CreateResult,
  type FeedEntry,
  type FeedPosition,
  type InstantHook,
  InstantHooksRepo,
  type PushOutcome
} from "./ports.js"
export { checkHookTarget, type InstantHookPolicy, InstantHooks, isHookHost, type NewInstantHook } from "./service.js"
export {
  type InstantHookWorkerOptions,
  pushHook,
  pushRound,
  type PushResult,
  runInstantHookWorker,
  InstantHookWorkerLive
} from "./worker.js"
