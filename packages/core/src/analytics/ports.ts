import { Context, type Effect, Schema } from "effect"
import type { Platform } from "../scheduling/platforms.js"
import type { PublishingAccount } from "../scheduling/publisher.js"
import type {
  AnalyticsPost,
  AnalyticsPostQuery,
  ClaimedFetch,
  FetchRecord,
  PeriodFigures,
  PostMetrics,
  SortedKey
} from "./schema.js"

/**
 * Why reading metrics failed. `temporary`: try later (`retryAfterMs` when the network said when); `credentials`: the
 * account's credentials no longer open it; `rejected`: the network refuses the request as asked. Every kind backs off
 * and keeps the post on its schedule: nothing is marked lost.
 */
export class MetricsFailure extends Schema.TaggedError<MetricsFailure>()("MetricsFailure", {
  kind: Schema.Literal("temporary", "rejected", "credentials"),
  message: Schema.String,
  retryAfterMs: Schema.optional(Schema.Number)
}) {}

/** What a reader is asked: the current metrics of some posts of one account. */
export interface MetricsRequest {
  readonly workspaceId: string
  /** The account the posts went out on, opened (the own feed's is a stand-in with no credentials). */
  readonly account: PublishingAccount
  /** The networks' ids of the posts, at most the reader's `batchSize`. */
  readonly remoteIds: ReadonlyArray<string>
}

/**
 * Reads published posts' metrics from one platform. One small adapter module per platform, like the publishers;
 * `MetricsReaders` holds those a server has. The answer has an entry for each post the platform still shows; a post
 * missing from it is gone (deleted on the network).
 */
export interface MetricsReader {
  readonly platform: Platform
  /** Most posts one `read` takes (Bluesky's `getPosts` takes 25). */
  readonly batchSize: number
  readonly read: (request: MetricsRequest) => Effect.Effect<ReadonlyMap<string, PostMetrics>, MetricsFailure>
}

/** The metrics readers this server has, by platform. */
export class MetricsReaders extends Context.Tag("svc/analytics/MetricsReaders")<
  MetricsReaders,
  ReadonlyMap<Platform, MetricsReader>
>() {}

/** A claim on due fetches: the token and the lease they are held with. */
export interface FetchClaim {
  readonly now: Date
  readonly claimToken: string
  readonly leaseUntil: Date
}

/** Sums of one period: per platform, and over all of them (posts counted once however many platforms). */
export interface PeriodRows {
  readonly all: PeriodFigures
  readonly platforms: ReadonlyArray<{ readonly platform: Platform } & PeriodFigures>
  readonly metricsAt: Date | null
}

/** One stored sample of a delivery's metrics. */
export interface MetricSample {
  readonly takenAt: Date
  readonly metrics: PostMetrics
}

/**
 * The analytics store: each posted delivery's fetch schedule (claimed with a token and a lease like the other queues),
 * its metric samples as a time series, and the own feed's link clicks. It reads the scheduling tables for what went
 * out.
 */
export class AnalyticsRepo extends Context.Tag("svc/analytics/AnalyticsRepo")<
  AnalyticsRepo,
  {
    /** Puts every posted delivery that has no fetch schedule yet on it, due at once; answers how many. */
    readonly scheduleNew: (now: Date) => Effect.Effect<number>
    /** Claims up to `limit` fetches due at `claim.now` (never claimed, or their lease ended), oldest due first. */
    readonly claimDue: (claim: FetchClaim, limit: number) => Effect.Effect<ReadonlyArray<ClaimedFetch>>
    /** Records a held fetch (its sample, if any, and its next time) and releases it; false when the claim was lost. */
    readonly record: (deliveryId: string, claimToken: string, record: FetchRecord) => Effect.Effect<boolean>
    /** A delivery's samples, oldest first. */
    readonly samples: (deliveryId: string) => Effect.Effect<ReadonlyArray<MetricSample>>
    /** Counts one click on a link of a feed post, on the UTC day of `at`. */
    readonly recordClick: (workspaceId: string, postId: string, at: Date) => Effect.Effect<void>
    /** The clicks counted on the links of these feed posts of the workspace, by post id (posts with none left out). */
    readonly feedClicks: (
      workspaceId: string,
      postIds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyMap<string, number>>
    /** The sums over the latest samples of the deliveries that went out in [from, to). */
    readonly periodFigures: (workspaceId: string, from: Date, to: Date) => Effect.Effect<PeriodRows>
    /** A page of published posts with their latest figures, sorted as `query` says. */
    readonly listPosts: (
      workspaceId: string,
      query: AnalyticsPostQuery
    ) => Effect.Effect<{ readonly rows: ReadonlyArray<AnalyticsPost>; readonly next: SortedKey | undefined }>
  }
>() {}
