import { Context, Effect, Option, Schema } from "effect"
import type { Page, PageRequest } from "../shared/paging.js"
import type { Platform } from "../scheduling/platforms.js"
import type { PublishingAccount } from "../scheduling/publisher.js"
import type { AutoDmRule, AutoDmSend, Engagement, InboxState, MessageChannel, SendStatus } from "./schema.js"

/** Which rules a list keeps. */
export interface RuleFilter {
  readonly accountId?: string | undefined
  readonly postId?: string | undefined
}

/** The workspace's auto-DM rules. */
export class AutoDmRulesRepo extends Context.Tag("svc/auto-dm/AutoDmRulesRepo")<
  AutoDmRulesRepo,
  {
    /** Stores a new rule, and makes its account's inbox (read from `rule.createdAt` on) when it has none. */
    readonly insert: (rule: AutoDmRule) => Effect.Effect<void>
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<AutoDmRule>>
    /** Writes the fields an update may change (keywords, template, link, delivery, enabled, post). */
    readonly save: (rule: AutoDmRule) => Effect.Effect<void>
    /** Deletes a rule and what it still owed; answers the rule as it was. */
    readonly remove: (workspaceId: string, id: string) => Effect.Effect<Option.Option<AutoDmRule>>
    /** A page of the workspace's rules, newest first. */
    readonly listPage: (workspaceId: string, filter: RuleFilter, page: PageRequest) => Effect.Effect<Page<AutoDmRule>>
    readonly count: (workspaceId: string) => Effect.Effect<number>
    /** The account's enabled rules, oldest first. */
    readonly enabledFor: (accountId: string) => Effect.Effect<ReadonlyArray<AutoDmRule>>
  }
>() {}

/** A claim on due work: the token and the lease it is held with. */
export interface WorkClaim {
  readonly now: Date
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** An inbox one worker holds until `leaseUntil`. */
export interface ClaimedInbox extends InboxState {
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** A send one worker holds until `leaseUntil`. */
export interface ClaimedSend extends AutoDmSend {
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** What a worker records of a send it holds, releasing its claim. */
export interface SendRecord {
  readonly status: SendStatus
  readonly attempts: number
  readonly nextAttemptAt: Date | null
  readonly channel: MessageChannel | null
  readonly remoteId: string | null
  readonly error: string | null
  readonly sentAt: Date | null
}

/**
 * The durable work of auto-DM: each account's inbox (its cursor, polled under a lease) and the sends rules owe,
 * one row per (rule, person) made before anything is sent, claimed with a token and a lease like the other queues.
 */
export class AutoDmWorkRepo extends Context.Tag("svc/auto-dm/AutoDmWorkRepo")<
  AutoDmWorkRepo,
  {
    /** Claims up to `limit` inboxes due at `claim.now` whose account has an enabled rule. */
    readonly claimInboxes: (claim: WorkClaim, limit: number) => Effect.Effect<ReadonlyArray<ClaimedInbox>>
    /**
     * Stores where the held inbox's reading left off and when to read it next, releasing it; false when
     * `claimToken` no longer holds it.
     */
    readonly recordInbox: (
      accountId: string,
      claimToken: string,
      state: { readonly cursor: string | null; readonly nextPollAt: Date; readonly error: string | null }
    ) => Effect.Effect<boolean>
    /** Stores sends, skipping any (rule, person) that already has one; answers how many are new. */
    readonly insertSends: (sends: ReadonlyArray<AutoDmSend>) => Effect.Effect<number>
    /** Claims up to `limit` pending sends due at `claim.now` (never claimed, or their lease ended); counts a try. */
    readonly claimSends: (claim: WorkClaim, limit: number) => Effect.Effect<ReadonlyArray<ClaimedSend>>
    /** Stores the channels a held send may have gone out on; false when `claimToken` no longer holds it. */
    readonly markTried: (
      id: string,
      claimToken: string,
      channels: ReadonlyArray<MessageChannel>
    ) => Effect.Effect<boolean>
    /** Whether `claimToken` still holds the send at `now`. */
    readonly holdsSend: (id: string, claimToken: string, now: Date) => Effect.Effect<boolean>
    /**
     * Records a held send's state and releases it; a send that became `sent` or `failed` counts on its rule. False
     * when `claimToken` no longer holds it.
     */
    readonly recordSend: (id: string, claimToken: string, record: SendRecord) => Effect.Effect<boolean>
    /** The sends of a rule, oldest first. */
    readonly sendsOf: (ruleId: string) => Effect.Effect<ReadonlyArray<AutoDmSend>>
  }
>() {}

/** An account as an inbox reads and sends with it (credentials opened): the publishers' account. */
export type MessagingAccount = PublishingAccount

/** What one read of an inbox found: replies and mentions, oldest first, and the cursor to read on from. */
export interface InboxRead {
  readonly items: ReadonlyArray<Engagement>
  readonly cursor: string | null
}

/** One message to send: the send's id (the same on every try, for keys) and what goes where. */
export interface OutgoingMessage {
  readonly sendId: string
  /** When the send was made, for keys that carry a time (AT Protocol record keys). */
  readonly createdAt: Date
  readonly channel: MessageChannel
  readonly text: string
  /** The reply or mention being answered: its author gets the message. */
  readonly trigger: Engagement
}

/** A message that went out: the platform's id for it. */
export interface SentMessage {
  readonly channel: MessageChannel
  readonly remoteId: string
}

/**
 * Why reading or sending failed. `temporary`: try later (`retryAfterMs` when the network said when); `rejected`:
 * the network refuses this message; `credentials`: the account needs reconnecting; `unavailable`: this channel
 * cannot reach this person (their direct messages are closed, or the app password lacks DM access), so a rule that
 * allows it replies instead. `beforeSending`: the failure came before anything could reach the person (opening a
 * conversation), so a rule that allows another channel may use it at once without risking a second message.
 */
export class MessageFailure extends Schema.TaggedError<MessageFailure>()("MessageFailure", {
  kind: Schema.Literal("temporary", "rejected", "credentials", "unavailable"),
  message: Schema.String,
  retryAfterMs: Schema.optional(Schema.Number),
  beforeSending: Schema.optional(Schema.Boolean)
}) {}

/**
 * Reads an account's replies and mentions and answers them, on one platform. One adapter module per platform;
 * `EngagementInboxes` holds those served.
 */
export interface EngagementInbox {
  readonly platform: Platform
  /**
   * Replies to and mentions of the account after `cursor` (from `since` on when there is none yet), oldest first,
   * leaving out the account's own posts; answers the cursor to pass next time.
   */
  readonly readNew: (
    account: MessagingAccount,
    cursor: string | null,
    since: Date
  ) => Effect.Effect<InboxRead, MessageFailure>
  /** Sends one message; a repeat of the same send must not make a second copy where the platform can prevent it. */
  readonly send: (account: MessagingAccount, message: OutgoingMessage) => Effect.Effect<SentMessage, MessageFailure>
  /** The message an earlier try of this send already made, if any (asked before sending again). */
  readonly findSent: (
    account: MessagingAccount,
    message: OutgoingMessage
  ) => Effect.Effect<Option.Option<SentMessage>, MessageFailure>
}

/** The inboxes this server reads, by platform. */
export class EngagementInboxes extends Context.Tag("svc/auto-dm/EngagementInboxes")<
  EngagementInboxes,
  ReadonlyMap<Platform, EngagementInbox>
>() {}

/**
 * The inboxes provided, or none: a composition that gives no inboxes (an embedding without outside networks) still
 * serves the rules, and refuses each one with the capability this server lacks.
 */
export const providedInboxes = Effect.map(
  Effect.serviceOption(EngagementInboxes),
  Option.getOrElse((): ReadonlyMap<Platform, EngagementInbox> => new Map())
)
