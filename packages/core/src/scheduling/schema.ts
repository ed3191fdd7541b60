import type { Platform } from "./platforms.js"

/** The longest post text, in characters (the own feed's limit; each platform has its own below it). */
export const POST_TEXT_MAX = 10_000
/** The most posts a long text may become on a platform that threads. */
export const THREAD_POSTS_MAX = 20
/** The most media files on one post. */
export const POST_MEDIA_MAX = 10
/** How far ahead a post may be scheduled. */
export const SCHEDULE_AHEAD_MAX_DAYS = 365
/** The most weekly posting slots of a workspace. */
export const SLOTS_MAX = 100
/** The most posts of a workspace waiting to go out (drafts and scheduled). */
export const PENDING_POSTS_MAX = 5_000
/** The longest content warning, in characters. */
export const CONTENT_WARNING_MAX = 500
/** Tries of one delivery before it fails for good. */
export const DELIVERY_MAX_ATTEMPTS = 6

/**
 * Where a post stands. `draft`: saved for review, not going out; `scheduled`: going out at `scheduledFor`;
 * `publishing`: its time came and its deliveries are under way; then `posted` (every platform), `partial` (some)
 * or `failed` (none); `cancelled` before it went out.
 */
export type PostStatus = "draft" | "scheduled" | "publishing" | "posted" | "partial" | "failed" | "cancelled"

/** The statuses a post may still change from (edited, cancelled, published now). */
export const OPEN_POST_STATUSES: ReadonlyArray<PostStatus> = ["draft", "scheduled"]

/** A media file on a post, with the alt text the post gives it. */
export interface PostMedia {
  readonly id: string
  readonly altText: string | null
}

/** Mastodon's audience of a post. */
export type Visibility = "public" | "unlisted" | "private"

/** A post of a workspace, to go out on one or more platforms. */
export interface Post {
  readonly id: string
  readonly workspaceId: string
  /** The account that made it. */
  readonly accountId: string
  readonly text: string
  readonly platforms: ReadonlyArray<Platform>
  readonly media: ReadonlyArray<PostMedia>
  readonly status: PostStatus
  /** When it goes out (UTC); a draft may have none yet. */
  readonly scheduledFor: Date | null
  /** The time came from the workspace's posting slots rather than the caller. */
  readonly fromSlot: boolean
  readonly numberThread: boolean
  readonly visibility: Visibility
  readonly contentWarning: string | null
  /** When it went out on its first platform. */
  readonly postedAt: Date | null
  /** Why it failed on some or every platform, when it did. */
  readonly error: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

/**
 * One platform's delivery of a post. `pending`: waiting for its time or its next try; `posted` with the network's
 * id and address; `failed` for good; `cancelled` with its post.
 */
export type DeliveryStatus = "pending" | "posted" | "failed" | "cancelled"

export interface Delivery {
  readonly id: string
  readonly postId: string
  readonly workspaceId: string
  readonly platform: Platform
  /** The connected account it goes out on (null for the own feed). */
  readonly socialAccountId: string | null
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly nextAttemptAt: Date | null
  readonly remoteId: string | null
  readonly url: string | null
  readonly error: string | null
  readonly postedAt: Date | null
  readonly createdAt: Date
}

/** A post with its deliveries. */
export interface PostView extends Post {
  readonly deliveries: ReadonlyArray<Delivery>
}

/** `needs_reconnect`: its credentials stopped working; posts to it fail until it is connected again. */
export type SocialAccountStatus = "connected" | "needs_reconnect"

/** A social account connected to a workspace (one per platform). */
export interface SocialAccount {
  readonly id: string
  readonly workspaceId: string
  readonly platform: Platform
  readonly handle: string
  readonly displayName: string | null
  readonly serviceUrl: string
  /** The credentials, sealed with the server key; never answered. */
  readonly credentialsSealed: string
  readonly status: SocialAccountStatus
  /** Why it needs reconnecting. */
  readonly statusReason: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A weekly posting slot in the workspace's time zone: `weekday` 1 (Monday) to 7 (Sunday), `time` "HH:MM". */
export interface PostingSlot {
  readonly weekday: number
  readonly time: string
}

/** A workspace's posting schedule: its IANA time zone and weekly slots. */
export interface PostingSchedule {
  readonly workspaceId: string
  readonly timeZone: string
  readonly slots: ReadonlyArray<PostingSlot>
  readonly updatedAt: Date | null
}
