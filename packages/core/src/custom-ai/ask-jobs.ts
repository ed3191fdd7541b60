import { Context, type Effect, type Option } from "effect"

/** How hard a language model is asked: `max` costs twice as much. */
export type AskMode = "standard" | "max"

/** What answering one question needs; keyed by the assistant message it writes. */
export interface AskJob {
  /** The assistant message (`msg_…`) the answer goes to; also the call id its credits are charged under. */
  readonly messageId: string
  readonly chatId: string
  /** The account that asked and pays. */
  readonly accountId: string
  readonly workspaceId: string
  readonly customAiId: string
  readonly mode: AskMode
}

/**
 * A job one runner holds until `leaseUntil`. Only the holder of `claimToken` may record how it ended; after the
 * lease (the holder died) another runner may claim it with a new token.
 */
export interface ClaimedAskJob extends AskJob {
  /** Runs started so far, this one included. */
  readonly attempts: number
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** A job as it stands in the queue: waiting until `runAfter`, or held by a runner until then. */
export interface AskJobState {
  readonly status: "pending" | "running"
  readonly attempts: number
  readonly runAfter: Date
}

/** A claim to take: the token and lease it is held with. */
export interface AskClaim {
  readonly now: Date
  readonly claimToken: string
  readonly leaseUntil: Date
}

/**
 * The durable queue of questions waiting for a language model, shared by every server instance on one database. A
 * job lives until it ends (answered or failed: the message keeps the outcome); the policy lives in the runner.
 */
export class AskJobs extends Context.Tag("svc/custom-ai/AskJobs")<
  AskJobs,
  {
    /** Adds a job already claimed by its creator, who runs it at once. */
    readonly insertClaimed: (job: AskJob, claim: AskClaim) => Effect.Effect<ClaimedAskJob>
    /**
     * Claims up to `limit` jobs that are due (waiting past their time, or held past their lease), skipping those
     * another runner is claiming this moment; each claim counts one more attempt.
     */
    readonly claimDue: (claim: AskClaim, limit: number) => Effect.Effect<ReadonlyArray<ClaimedAskJob>>
    /** Removes a job that ended; false when `claimToken` no longer holds it. */
    readonly complete: (messageId: string, claimToken: string) => Effect.Effect<boolean>
    /** Puts a held job back to wait until `runAfter`; false when `claimToken` no longer holds it. */
    readonly retryAt: (messageId: string, claimToken: string, runAfter: Date) => Effect.Effect<boolean>
    /** Where the job of an assistant message stands, while it still waits or runs. */
    readonly find: (messageId: string) => Effect.Effect<Option.Option<AskJobState>>
    /** Locks a job for the transaction while `claimToken` holds it; false when it no longer does (or is gone). */
    readonly lockHeld: (messageId: string, claimToken: string) => Effect.Effect<boolean>
    /**
     * Locks a Custom AI, its chats and its jobs for the transaction, so no question joins it meanwhile and no run
     * ends or charges one of its jobs; answers those jobs.
     */
    readonly lockForCustomAi: (workspaceId: string, customAiId: string) => Effect.Effect<ReadonlyArray<AskJob>>
  }
>() {}

/** Runs of one job at most: a provider that stays unreachable (or a runner that keeps dying) ends it failed. */
export const ASK_MAX_ATTEMPTS = 3

/** The wait before the next run after the `attempts`-th failed one: 5 s, then 30 s, or longer when the provider asks. */
export const askRetryDelayMs = (attempts: number, retryAfterSeconds: number | undefined): number => {
  const scheduled = attempts <= 1 ? 5_000 : 30_000
  return retryAfterSeconds === undefined ? scheduled : Math.max(scheduled, Math.min(retryAfterSeconds, 600) * 1_000)
}

/** How asking runs in this process (the server reads them from `SVC_AI_ASK_BUDGET_MS` and `SVC_AI_LEASE_MS`). */
export interface AskSettingsShape {
  /** How long `ask` waits for the model before answering `running` (the answer then goes on in the background). */
  readonly budgetMs: number
  /** How long a runner holds a job; a model call is cut off before it ends, so no two runners hold one job. */
  readonly leaseMs: number
}

/** The asking settings in use: 20 s budget and a 2 min lease unless a layer provides others. */
export class AskSettings extends Context.Reference<AskSettings>()("svc/custom-ai/AskSettings", {
  defaultValue: (): AskSettingsShape => ({ budgetMs: 20_000, leaseMs: 120_000 })
}) {}

/** The part of the lease a model call may take: the rest is left to record the answer before the lease ends. */
export const modelDeadlineMs = (leaseMs: number): number => Math.max(1_000, Math.floor(leaseMs * 0.9))
