import { Context, type Effect, type Option } from "effect"
import type { MediaAsset } from "../media/schema.js"
import type { NotFound } from "../shared/errors.js"
import type { Page, PageRequest } from "../shared/paging.js"
import type { Platform } from "./platforms.js"
import type { Delivery, DeliveryStatus, Post, PostingSchedule, PostStatus, PostView, SocialAccount } from "./schema.js"

/** A claim on due deliveries: the token and the lease they are held with. */
export interface DeliveryClaim {
  readonly now: Date
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** A delivery one worker holds until `leaseUntil`; only the holder of `claimToken` may record what became of it. */
export interface ClaimedDelivery extends Delivery {
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** What a worker records of a delivery it holds, releasing its claim. */
export interface DeliveryRecord {
  readonly status: DeliveryStatus
  readonly attempts: number
  /** The next try (status `pending`); null once it is done. */
  readonly nextAttemptAt: Date | null
  readonly remoteId: string | null
  readonly url: string | null
  readonly error: string | null
  readonly postedAt: Date | null
}

/** Which posts a list keeps. */
export interface PostFilter {
  /** Only posts in one of these statuses (none or empty: any). */
  readonly statuses?: ReadonlyArray<PostStatus> | undefined
  readonly platform?: Platform | undefined
  /** `scheduledFor` at or after `from` and before `to`. */
  readonly from?: Date | undefined
  readonly to?: Date | undefined
}

/**
 * Stored posts and their deliveries. Deliveries are the durable work: one per (post, platform), claimed with a
 * token and a lease like the other queues, so N instances publish each once.
 */
export class PostsRepo extends Context.Tag("svc/scheduling/PostsRepo")<
  PostsRepo,
  {
    readonly insert: (post: Post, deliveries: ReadonlyArray<Delivery>) => Effect.Effect<void>
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<PostView>>
    /** A post of the workspace under a row lock, with its deliveries (inside a transaction). */
    readonly lock: (workspaceId: string, id: string) => Effect.Effect<Option.Option<PostView>>
    /** Writes every field a change may touch, and replaces the deliveries with `deliveries`. */
    readonly save: (post: Post, deliveries: ReadonlyArray<Delivery>) => Effect.Effect<void>
    /** A page of the workspace's posts with their deliveries, newest first. */
    readonly listPage: (workspaceId: string, filter: PostFilter, page: PageRequest) => Effect.Effect<Page<PostView>>
    /** Drafts and scheduled posts of the workspace. */
    readonly countOpen: (workspaceId: string) => Effect.Effect<number>
    /** The times of the workspace's scheduled or draft posts in [from, to), to find a free slot. */
    readonly takenTimes: (workspaceId: string, from: Date, to: Date) => Effect.Effect<ReadonlyArray<Date>>
    /**
     * Claims up to `limit` pending deliveries due at `claim.now` (never claimed, or their lease ended), and moves
     * their posts from `scheduled` to `publishing`.
     */
    readonly claimDue: (claim: DeliveryClaim, limit: number) => Effect.Effect<ReadonlyArray<ClaimedDelivery>>
    /** Whether `claimToken` still holds the delivery at `now` (its lease has not ended and nobody took it over). */
    readonly holds: (id: string, claimToken: string, now: Date) => Effect.Effect<boolean>
    /** Records a held delivery's state and releases it; false when `claimToken` no longer holds it. */
    readonly recordDelivery: (id: string, claimToken: string, record: DeliveryRecord) => Effect.Effect<boolean>
    /** Sets the outcome of a post whose deliveries are all done (inside the transaction that locked it). */
    readonly finish: (
      postId: string,
      outcome: { readonly status: PostStatus; readonly postedAt: Date | null; readonly error: string | null },
      at: Date
    ) => Effect.Effect<void>
    /**
     * A page of the workspace's posts that went out on its own feed, newest first (by when they went out), for
     * the public feed.
     */
    readonly feedPage: (workspaceId: string, page: PageRequest) => Effect.Effect<Page<PostView>>
    /** Whether `mediaId` is on a post that went out on the workspace's feed (so the feed may serve it). */
    readonly feedHasMedia: (workspaceId: string, mediaId: string) => Effect.Effect<boolean>
    /** One post of the workspace's feed, when it went out there. */
    readonly feedPost: (workspaceId: string, id: string) => Effect.Effect<Option.Option<PostView>>
  }
>() {}

/** The social accounts connected to workspaces: one per platform and workspace. */
export class SocialAccountsRepo extends Context.Tag("svc/scheduling/SocialAccountsRepo")<
  SocialAccountsRepo,
  {
    /** Connects, or replaces the workspace's account on that platform; answers the stored account. */
    readonly upsert: (account: SocialAccount) => Effect.Effect<SocialAccount>
    readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<SocialAccount>>
    readonly find: (id: string) => Effect.Effect<Option.Option<SocialAccount>>
    readonly markNeedsReconnect: (id: string, reason: string, at: Date) => Effect.Effect<void>
    /** Disconnects; false when the workspace has no such account. */
    readonly remove: (workspaceId: string, id: string) => Effect.Effect<boolean>
  }
>() {}

/** Workspaces' posting schedules (time zone and weekly slots). */
export class PostingSchedulesRepo extends Context.Tag("svc/scheduling/PostingSchedulesRepo")<
  PostingSchedulesRepo,
  {
    readonly find: (workspaceId: string) => Effect.Effect<Option.Option<PostingSchedule>>
    readonly save: (schedule: PostingSchedule) => Effect.Effect<void>
  }
>() {}

/**
 * The media files posts carry, as scheduling needs them: provided from the media library where the core is composed,
 * so this area does not depend on how files are stored.
 */
export class PostMediaFiles extends Context.Tag("svc/scheduling/PostMediaFiles")<
  PostMediaFiles,
  {
    /** The workspace's complete media files of `ids`, in that order; `NotFound` names the first that is not one. */
    readonly findReady: (
      workspaceId: string,
      ids: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<MediaAsset>, NotFound>
    /** The whole file. */
    readonly read: (asset: MediaAsset) => Effect.Effect<Uint8Array>
  }
>() {}

// Social accounts' credentials are sealed like every other stored secret (the store's processor keys too).
export { CredentialSealer } from "../shared/ports.js"
