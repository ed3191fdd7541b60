import { Context, type Effect, type Option, Schema } from "effect"
import type { Ad, Brand, Creator, ResearchPlatform, SocialPost } from "./schema.js"

/**
 * Why a source could not answer. `unavailable`: it timed out, answered 5xx or could not be reached (the answer comes
 * from the other sources); `rate-limited`: it asked us to wait `retryAfterMs`; `refused`: it turned the request
 * away (a bad or expired key: the operator must fix the setting).
 */
export class SourceFailure extends Schema.TaggedError<SourceFailure>()("SourceFailure", {
  kind: Schema.Literal("unavailable", "rate-limited", "refused"),
  message: Schema.String,
  retryAfterMs: Schema.optional(Schema.Number)
}) {}

/**
 * How a person names a creator: a handle (`alice.bsky.social`, `@alice`), a profile or publication URL, or a name.
 * Sources parse what they recognise and answer `Option.none()` for what is not theirs or not found.
 */
export interface CreatorRef {
  readonly text: string
  /** The network the caller named, when it did: a source serving several networks asks only that one. */
  readonly platform?: ResearchPlatform | undefined
}

/** A creator a source already resolved: what its other calls need. */
export interface CreatorKey {
  readonly platform: ResearchPlatform
  readonly id: string
  readonly handle: string
}

/** How a person names a post: its URL, or the network's id (an `at://` URI, a video id). */
export interface PostRef {
  readonly text: string
}

/** What an ads search asks for. */
export interface AdQuery {
  /** Words the ads contain. */
  readonly query: string
  /** ISO 3166 alpha-2 country the ads were shown in, e.g. `US`; undefined: all the source allows. */
  readonly country?: string | undefined
  /** Only ads still running. */
  readonly activeOnly: boolean
}

/**
 * One outside (or own) source of research data. A source declares what it can answer by the parts it has: a source
 * without `follows` is `not-supported` for following questions. Every part answers at most `limit` rows, newest
 * first where the rows have a time. A part answers `Option.none()` (or an empty list) for what it does not know;
 * `SourceFailure` only when it could not ask.
 */
export interface SocialSource {
  /** Short stable name shown in answers: `bluesky`, `youtube`, `rss`, `meta-ads`, `provider`. */
  readonly name: string
  /** The networks it answers for. */
  readonly platforms: ReadonlyArray<ResearchPlatform>
  /**
   * Null when it is configured; else the setting (environment variable) that turns it on, which answers then name
   * with status `not-set-up` (its parts are then never called).
   */
  readonly missingSetting: string | null
  readonly creators?: {
    /** The creator `ref` names on this source's networks. */
    readonly resolve: (ref: CreatorRef) => Effect.Effect<Option.Option<Creator>, SourceFailure>
    /** `platform`: only that network's creators (a source serving several networks); undefined: all it serves. */
    readonly search: (
      query: string,
      limit: number,
      platform?: ResearchPlatform | undefined
    ) => Effect.Effect<ReadonlyArray<Creator>, SourceFailure>
  }
  readonly posts?: {
    /** The creator's latest posts (videos, articles). */
    readonly ofCreator: (creator: CreatorKey, limit: number) => Effect.Effect<ReadonlyArray<SocialPost>, SourceFailure>
    /** One post by URL or id; none when it is not this source's or does not exist. */
    readonly read: (ref: PostRef) => Effect.Effect<Option.Option<SocialPost>, SourceFailure>
  }
  readonly search?: {
    /** Posts matching words, best or newest first as the source ranks them. */
    readonly posts: (
      query: string,
      limit: number,
      platform?: ResearchPlatform | undefined
    ) => Effect.Effect<ReadonlyArray<SocialPost>, SourceFailure>
  }
  readonly follows?: {
    /** Whom the creator follows (subscribes to). */
    readonly of: (creator: CreatorKey, limit: number) => Effect.Effect<ReadonlyArray<Creator>, SourceFailure>
  }
  readonly ads?: {
    readonly search: (query: AdQuery, limit: number) => Effect.Effect<ReadonlyArray<Ad>, SourceFailure>
    /** The brand `name` names (a page id, a page URL or a name). */
    readonly resolveBrand: (name: string) => Effect.Effect<Option.Option<Brand>, SourceFailure>
    readonly ofBrand: (
      brand: Brand,
      activeOnly: boolean,
      limit: number
    ) => Effect.Effect<ReadonlyArray<Ad>, SourceFailure>
  }
}

/** The outside sources this server has (the workspace's own library is the core's, always on, and not listed). */
export class SocialSources extends Context.Tag("svc/research/SocialSources")<
  SocialSources,
  ReadonlyArray<SocialSource>
>() {}
