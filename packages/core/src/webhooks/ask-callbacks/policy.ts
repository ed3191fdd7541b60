/** The numbers of the ask step's callbacks, in one place (docs/automation-steps.md, "Retries"). */
import { DELIVERY_DEADLINE_MS } from "../policy.js"

/** Waits before each resend after a failed send: 1 m, 5 m, 15 m, 40 m; five sends over about an hour in all. */
export const ASK_CALLBACK_RETRY_DELAYS_MS: ReadonlyArray<number> = [60_000, 5 * 60_000, 15 * 60_000, 40 * 60_000]

/** Sends a callback gets: the first plus one per retry delay. */
export const ASK_CALLBACK_MAX_ATTEMPTS = ASK_CALLBACK_RETRY_DELAYS_MS.length + 1

/** One deadline over DNS, connect, TLS and the answer, as for webhook deliveries. */
export const ASK_CALLBACK_DEADLINE_MS = DELIVERY_DEADLINE_MS

/** How long an answer may stay running before the callback says it did not finish (the ask job ends far sooner). */
export const ASK_CALLBACK_ANSWER_WAIT_MS = 60 * 60_000

/** Ended callbacks are deleted after this long. */
export const ASK_CALLBACK_RETENTION_MS = 7 * 86_400_000

/** How the callback worker of one process runs. */
export interface AskCallbackWorkerOptions {
  /** How long a claim holds a callback: a look at its answer and one send, with room to spare. */
  readonly leaseMs: number
  /** Callbacks handled at once in this process. */
  readonly concurrency: number
  /** Wait between looks at the queue when nothing was due. */
  readonly idleMs: number
  /** Wait before looking again at an answer that is still running. */
  readonly answerPollMs: number
}

/** The defaults of {@link AskCallbackWorkerOptions}. */
export const DEFAULT_ASK_CALLBACK_WORKER: AskCallbackWorkerOptions = {
  leaseMs: 60_000,
  concurrency: 8,
  idleMs: 2_000,
  answerPollMs: 3_000
}
