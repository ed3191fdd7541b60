import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../shared/paging.js"

/** Where an outbox message stands: waiting (or being sent), handed to the mail server, or given up on. */
export type OutboxStatus = "pending" | "sent" | "failed"

/** One message of the outbox, as stored. */
export interface OutboxMessage {
  readonly id: string
  readonly workspaceId: string
  readonly kind: string
  readonly to: string
  readonly subject: string
  /** The text as the sender wrote it; list mail gets its unsubscribe footer when composed (`composeMail`). */
  readonly text: string
  readonly toList: boolean
  readonly status: OutboxStatus
  /** Sends tried so far. */
  readonly attempts: number
  readonly lastError: string | null
  readonly createdAt: Date
  readonly sentAt: Date | null
}

/**
 * A pending message one worker holds until `leaseUntil`. Only the holder of `claimToken` may record what happened;
 * after the lease (the holder died) another worker may claim it with a new token and send it again, under the same
 * Message-ID.
 */
export interface ClaimedMail extends OutboxMessage {
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** A claim to take: the token and lease it is held with. */
export interface MailClaim {
  readonly now: Date
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** How a held message goes on: sent, tried again at `at`, or given up on. */
export type MailStep =
  | { readonly _tag: "sent"; readonly at: Date; readonly attempts: number }
  | { readonly _tag: "later"; readonly at: Date; readonly attempts: number; readonly lastError: string }
  | { readonly _tag: "failed"; readonly at: Date; readonly attempts: number; readonly lastError: string }

/**
 * The outbox as the delivery worker and the owner's outbox page see it, shared by every server instance on one
 * database: claims use `FOR UPDATE SKIP LOCKED`, a lease and a claim token, so each message is sent by one worker at
 * a time.
 */
export class MailOutbox extends Context.Tag("svc/mail/MailOutbox")<
  MailOutbox,
  {
    /** Claims up to `limit` pending messages that are due (waiting past their time, or held past their lease). */
    readonly claimDue: (claim: MailClaim, limit: number) => Effect.Effect<ReadonlyArray<ClaimedMail>>
    /** Records how a held message goes on; false when `claimToken` no longer holds it. */
    readonly record: (id: string, claimToken: string, step: MailStep) => Effect.Effect<boolean>
    readonly find: (id: string) => Effect.Effect<Option.Option<OutboxMessage>>
    /** Deletes up to `limit` messages queued before `cutoff` that no worker holds; answers how many went. */
    readonly purgeBefore: (cutoff: Date, limit: number) => Effect.Effect<number>
    /** The mail of every workspace the account owns, newest first. */
    readonly listForOwner: (accountId: string, page: PageRequest) => Effect.Effect<Page<OutboxMessage>>
  }
>() {}
