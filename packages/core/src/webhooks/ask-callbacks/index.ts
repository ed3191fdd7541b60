/** The automation tool's "Ask a Custom AI" step: asking without waiting, and the durable callbacks that post answers. */
export {
  ASK_CALLBACK_ANSWER_WAIT_MS,
  ASK_CALLBACK_DEADLINE_MS,
  ASK_CALLBACK_MAX_ATTEMPTS,
  ASK_CALLBACK_RETENTION_MS,
  ASK_CALLBACK_RETRY_DELAYS_MS,
  type AskCallbackWorkerOptions,
  DEFAULT_ASK_CALLBACK_WORKER
} from "./policy.js"
export {
  type AskCallbackClaim,
  AskCallbackQueue,
  type AskCallbackState,
  type AskCallbackStatus,
  type AskCallbackStep,
  type ClaimedAskCallback,
  type NewAskCallback
} from "./queue.js"
export { AskCallbacks, type AskWithCallbackAnswer, type AskWithCallbackInput } from "./service.js"
export {
  type AskCallbackBody,
  AskCallbackWorkerLive,
  deliverAskCallback,
  runAskCallbackWorker,
  runDueAskCallbacks
} from "./worker.js"
