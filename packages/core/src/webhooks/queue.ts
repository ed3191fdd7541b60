import { Context, type Effect, type Option } from "effect"
import type { LoggedAttempt } from "./attempt.js"

/** Why a delivery is being tried: on its schedule, or because the owner asked for a resend. */
export type DeliveryTrigger = "scheduled" | "resend"

/**
 * A delivery one worker holds until `leaseUntil`, with everything needed to send it. Only the holder of
 * `claimToken` may record how it ended; after the lease another worker may claim it with a new token.
 */
export interface ClaimedDelivery {
  readonly id: string
  readonly webhookId: string
  readonly workspaceId: string
  readonly eventId: string
  readonly eventType: string
  /** The event's stored envelope bytes; null when the event is no longer stored. */
  readonly body: string | null
  readonly url: string
  /** The current signing secret, sealed. */
  readonly secretSealed: string
  /** The secret before the last roll, sealed, and until when it still signs; null when there is none. */
  readonly previousSecretSealed: string | null
  readonly previousSecretUntil: Date | null
  /** When the webhook's current run of failures began, as of the claim; null when it is healthy. */
  readonly webhookFailingSince: Date | null
  /** Tries made so far; this one is `attempts + 1`. */
  readonly attempts: number
  readonly trigger: DeliveryTrigger
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** Which deliveries to claim, and the lease and token to claim them with. */
export interface ClaimRequest {
  readonly now: Date
  readonly leaseUntil: Date
  readonly claimToken: string
  /** At most this many deliveries. */
  readonly limit: number
  /** At most this many deliveries of one webhook in flight at once (counting those other workers hold). */
  readonly perWebhookLimit: number
}

/** One try as the delivery log keeps it. */
export interface AttemptRecord extends LoggedAttempt {
  readonly id: string
  /** 1 for the first try. */
  readonly number: number
  readonly trigger: DeliveryTrigger
  readonly attemptedAt: Date
}

/** Where a delivery goes after a try: done, given up, or back in the queue until `at`. */
export type NextStep =
  | { readonly status: "done"; readonly at: Date }
  | { readonly status: "failed"; readonly at: Date }
  | { readonly status: "pending"; readonly at: Date }

/** How one claimed delivery's try ended, to record: the log row (none when nothing was sent) and where it goes next. */
export interface FinishedDelivery {
  readonly deliveryId: string
  readonly claimToken: string
  readonly attempt: AttemptRecord | null
  readonly next: NextStep
}

/** The owner to tell when a webhook was turned off. */
export interface DisabledWebhook {
  readonly webhookId: string
  readonly workspaceId: string
  readonly url: string
  /** The email of the workspace's owner account. */
  readonly ownerEmail: string
}

/** What one purge batch removed. */
export interface PurgedBatch {
  readonly deliveries: number
  readonly events: number
}

/**
 * The queue of webhook deliveries, shared by every server instance on one database. The delivery
 * policy (retry schedule, disabling, email) lives in the worker; this port only stores.
 */
export class DeliveryQueue extends Context.Tag("svc/webhooks/DeliveryQueue")<
  DeliveryQueue,
  {
    /**
     * Claims due deliveries of enabled webhooks: pending ones whose time has come, and those a worker
     * claimed but did not finish before its lease ran out. Rows another worker is claiming are skipped.
     */
    readonly claim: (request: ClaimRequest) => Effect.Effect<ReadonlyArray<ClaimedDelivery>>
    /**
     * Logs each try and moves each delivery on, all in one statement, each only while its `claimToken` still holds
     * it. Answers the ids that were; of the others (a worker that outlived its lease loses to the new owner) nothing
     * is written.
     */
    readonly finishMany: (finished: ReadonlyArray<FinishedDelivery>) => Effect.Effect<ReadonlySet<string>>
    /** A delivery of the webhook succeeded: it is healthy again (`failing_since` cleared). */
    readonly markHealthy: (webhookId: string) => Effect.Effect<void>
    /**
     * A delivery failed: starts the failing clock unless it runs already, and answers when it started;
     * none when the webhook is gone or turned off.
     */
    readonly markFailing: (webhookId: string, at: Date) => Effect.Effect<Option.Option<Date>>
    /**
     * Turns the webhook off after three days of failures; answers its owner only when this call turned it
     * off (so they are told once).
     */
    readonly disable: (webhookId: string, reason: "failing", at: Date) => Effect.Effect<Option.Option<DisabledWebhook>>
    /**
     * Deletes up to `limit` deliveries (with their attempts) created before `cutoff` and, once none of those
     * are left, up to `limit` events before it. One instance purges at a time: none when another holds it.
     */
    readonly purgeBatch: (cutoff: Date, limit: number) => Effect.Effect<Option.Option<PurgedBatch>>
    /** Returns when new deliveries may be due (a wake-up from another writer) or after at most `maxMs`. */
    readonly awaitWork: (maxMs: number) => Effect.Effect<void>
  }
>() {}
