import { Context, type Effect, type Option } from "effect"

/** A callback to send once the answer of one ask is ready. */
export interface NewAskCallback {
  readonly id: string
  /** The assistant message (`msg_…`) whose answer is sent. */
  readonly messageId: string
  readonly chatId: string
  /** The account that asked: the answer is read as its. */
  readonly accountId: string
  readonly workspaceId: string
  readonly customAiId: string
  /** The automation tool's hook address, checked and normalised. */
  readonly callbackUrl: string
  readonly createdAt: Date
}

/** How a callback ended, or that it still waits. */
export type AskCallbackStatus = "pending" | "sending" | "delivered" | "failed" | "gone"

/**
 * A callback one worker holds until `leaseUntil`. Only the holder of `claimToken` may record what happened; after the
 * lease (the holder died) another worker may claim it with a new token.
 */
export interface ClaimedAskCallback extends NewAskCallback {
  /** Sends tried so far (looks at an answer still running are not counted). */
  readonly attempts: number
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** A claim to take: the token and lease it is held with. */
export interface AskCallbackClaim {
  readonly now: Date
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** A callback as it stands. */
export interface AskCallbackState {
  readonly status: AskCallbackStatus
  readonly attempts: number
  readonly nextAttemptAt: Date
  readonly lastError: string | null
}

/** How a held callback goes on: sent again or looked at again at `at`, or ended. */
export type AskCallbackStep =
  | { readonly _tag: "later"; readonly at: Date; readonly attempts: number; readonly lastError: string | null }
  | {
      readonly _tag: "ended"
      readonly status: "delivered" | "failed" | "gone"
      readonly attempts: number
      readonly lastError: string | null
      readonly at: Date
    }

/**
 * The durable callbacks of the automation tool's ask step, shared by every server instance on one database: a row per
 * ask, claimed with `FOR UPDATE SKIP LOCKED`, a lease and a claim token, so each is sent by one worker at a time.
 */
export class AskCallbackQueue extends Context.Tag("svc/webhooks/AskCallbackQueue")<
  AskCallbackQueue,
  {
    /** Adds a callback, due at once. */
    readonly insert: (callback: NewAskCallback) => Effect.Effect<void>
    /**
     * Claims up to `limit` callbacks that are due (waiting past their time, or held past their lease), skipping those
     * another worker is claiming this moment.
     */
    readonly claimDue: (claim: AskCallbackClaim, limit: number) => Effect.Effect<ReadonlyArray<ClaimedAskCallback>>
    /** Records how a held callback goes on; false when `claimToken` no longer holds it. */
    readonly record: (id: string, claimToken: string, step: AskCallbackStep) => Effect.Effect<boolean>
    /** Where a callback stands. */
    readonly find: (id: string) => Effect.Effect<Option.Option<AskCallbackState>>
    /** Deletes callbacks that ended before `before`; answers how many went. */
    readonly purgeEnded: (before: Date) => Effect.Effect<number>
  }
>() {}
