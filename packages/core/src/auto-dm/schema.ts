import type { Platform } from "../scheduling/platforms.js"

/** The most auto-DM rules of one workspace. */
export const RULES_MAX = 50
/** The most trigger keywords of one rule. */
export const KEYWORDS_MAX = 20
/** The longest trigger keyword or phrase, in characters. */
export const KEYWORD_MAX = 100
/** The longest message template, in characters. */
export const TEMPLATE_MAX = 1_000
/** The longest link a rule carries, in characters. */
export const LINK_MAX = 2_000
/** The keyword that matches every reply and mention (it stands alone in a rule's list). */
export const ANY_KEYWORD = "*"
/** Tries of one send before it fails for good. */
export const SEND_MAX_ATTEMPTS = 6
/** The longest name `{name}` puts in a message, in characters (a longer display name is cut). */
export const NAME_MAX = 64

/**
 * How a rule answers: `dm` a direct message, `reply` a public reply to the person's post, `dmOrReply` a direct message
 * where the person and the account allow one, else a reply.
 */
export type AutoDmDelivery = "dm" | "reply" | "dmOrReply"

/** The two ways a message goes out. */
export type MessageChannel = "dm" | "reply"

/** The channels a delivery mode tries, in order. */
export const channelsOf = (delivery: AutoDmDelivery): ReadonlyArray<MessageChannel> =>
  delivery === "dm" ? ["dm"] : delivery === "reply" ? ["reply"] : ["dm", "reply"]

/** What one platform can send: its channels, and the budget of messages an account sends there. */
export interface MessagingCapability {
  readonly channels: ReadonlyArray<MessageChannel>
  /** How a direct message goes out there (for messages and docs). */
  readonly dmVia: string | null
  /** At most `limit` auto-DM messages per account in `windowMs` (replies and DMs together). */
  readonly budget: { readonly limit: number; readonly windowMs: number }
}

const HOUR = 3_600_000

/**
 * What each platform can send, as data. Bluesky: direct messages through its chat service (`chat.bsky.convo`) and
 * replies; Mastodon: replies, and a direct-visibility mention as the direct message; the own feed and the platforms
 * this server does not read cannot send messages. Budgets stay well inside each network's own limits (Bluesky's PDS:
 * 5,000 write points an hour, 3 a record; Mastodon: 300 statuses in 3 hours per account), so the account's own
 * posting keeps room.
 */
export const MESSAGING: Readonly<Partial<Record<Platform, MessagingCapability>>> = {
  bluesky: {
    channels: ["dm", "reply"],
    dmVia: "Bluesky chat (chat.bsky.convo)",
    budget: { limit: 100, windowMs: HOUR }
  },
  mastodon: {
    channels: ["dm", "reply"],
    dmVia: "a direct-visibility mention",
    budget: { limit: 60, windowMs: HOUR }
  }
}

/** A rule: replies and mentions of an account (on one post or all) that carry a keyword get one message each. */
export interface AutoDmRule {
  readonly id: string
  readonly workspaceId: string
  /** The connected account (sac_…) whose replies and mentions are read, and which sends. */
  readonly accountId: string
  readonly platform: Platform
  /** A post of the workspace (post_…) whose replies are answered; null: every reply and mention of the account. */
  readonly postId: string | null
  /** That post's id on the platform (an `at://` URI, a status id), read when the rule is made. */
  readonly postRemoteId: string | null
  /** Lower-cased keywords and phrases, matched as whole words; `["*"]` matches everything. */
  readonly keywords: ReadonlyArray<string>
  readonly template: string
  readonly link: string | null
  readonly delivery: AutoDmDelivery
  readonly enabled: boolean
  readonly sentCount: number
  readonly failedCount: number
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A reply to, or mention of, the account, as the platform's inbox reads it. */
export interface Engagement {
  /** The post's id on the platform (an `at://` URI, a status id): what a reply answers. */
  readonly remoteId: string
  /** Bluesky's content id of the post (a reply needs it); null elsewhere. */
  readonly cid: string | null
  readonly kind: "reply" | "mention"
  /** The person: a stable id (a DID, an account id), their handle and display name. */
  readonly authorId: string
  readonly authorHandle: string
  readonly authorName: string | null
  readonly text: string
  /** The post it replies to (its remote id), and its thread's first post; null for a post that is not a reply. */
  readonly parentRemoteId: string | null
  readonly rootRemoteId: string | null
  /** The thread's first post as Bluesky references it (`uri`, `cid`), for a reply's `root`; null elsewhere. */
  readonly root: { readonly uri: string; readonly cid: string } | null
  /** Direct-visibility (Mastodon): the person wrote privately. */
  readonly direct: boolean
  /** When the platform saw it. */
  readonly at: Date
}

/** `pending`: to be sent (at `nextAttemptAt`); `sent`; `failed` for good; `skipped`: its rule was turned off first. */
export type SendStatus = "pending" | "sent" | "failed" | "skipped"

/** One message a rule owes one person: made before anything is sent, unique per (rule, person). */
export interface AutoDmSend {
  readonly id: string
  readonly ruleId: string
  readonly workspaceId: string
  readonly accountId: string
  /** The person's stable id on the platform. */
  readonly personId: string
  readonly personHandle: string
  /** The reply or mention that triggered it. */
  readonly trigger: Engagement
  /** The message, rendered from the template when it matched. */
  readonly text: string
  readonly status: SendStatus
  readonly attempts: number
  readonly nextAttemptAt: Date | null
  /**
   * The channels a try may have sent on: each is written before a try sends on it (and taken back when the try failed
   * before anything went out), so a later try asks the platform about exactly these before sending again.
   */
  readonly triedChannels: ReadonlyArray<MessageChannel>
  /** How it went out, once sent. */
  readonly channel: MessageChannel | null
  /** The platform's id of the message (a reply's URI, a chat message id, a status id). */
  readonly remoteId: string | null
  readonly error: string | null
  readonly sentAt: Date | null
  readonly createdAt: Date
}

/** The inbox of an account: where reading left off, and when it is read next. */
export interface InboxState {
  readonly accountId: string
  /** The inbox's own cursor (opaque), null before the first read. */
  readonly cursor: string | null
  readonly nextPollAt: Date
}
