/** The numbers of instant hooks, in one place (spec: "Instant hooks (automation tool)"). */
import { DELIVERY_DEADLINE_MS, DISABLE_AFTER_FAILING_MS } from "../policy.js"

/** Instant hooks one store may have; the next subscribe answers 422. */
export const MAX_INSTANT_HOOKS_PER_STORE = 50

/** How often the push worker looks for new feed rows by default (`SVC_INSTANT_HOOK_INTERVAL_MS`). */
export const DEFAULT_INSTANT_HOOK_INTERVAL_MS = 15_000

/** Ids in one push, oldest first; a larger backlog goes in several pushes. */
export const IDS_PER_PUSH = 100

/** Pushes to one hook in one round at most; the rest waits for the next round. */
export const PUSHES_PER_ROUND = 5

/** One deadline over DNS, connect, TLS and the answer, as for webhook deliveries. */
export const PUSH_DEADLINE_MS = DELIVERY_DEADLINE_MS

/** How long a round holds a hook: every push it may make, each within the deadline, and some slack. */
export const PUSH_LEASE_MS = PUSHES_PER_ROUND * PUSH_DEADLINE_MS + 30_000

/** A hook whose pushes have done nothing but fail for this long is deleted, as a webhook is turned off. */
export const DROP_AFTER_FAILING_MS = DISABLE_AFTER_FAILING_MS

/**
 * Rows younger than this are left for the next round: a row's time is taken before its transaction commits, so
 * a row committed a moment late can carry a time just before one already pushed. Waiting lets it land first.
 */
export const SETTLE_MS = 5_000

/** The automation tool's hook domain, when `SVC_INSTANT_HOOK_HOSTS` names none. */
export const DEFAULT_INSTANT_HOOK_HOSTS: ReadonlyArray<string> = ["hooks.zapier.com"]
