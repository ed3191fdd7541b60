import { Context, type Effect, type Option, Schema } from "effect"
import type { MediaKind } from "../media/schema.js"
import type { Platform } from "./platforms.js"

/**
 * A connected account as a publisher uses it: where it lives and its credentials, opened from their sealed form.
 * `credentials` is the publisher's own JSON (for Bluesky the handle and app password, for Mastodon the access
 * token); the service never reads inside it.
 */
export interface PublishingAccount {
  readonly id: string
  readonly platform: Platform
  /** The account's handle on its network, e.g. `alice.bsky.social` or `@alice@mastodon.social`. */
  readonly handle: string
  /** Its server, e.g. `https://bsky.social` or `https://mastodon.social`. */
  readonly serviceUrl: string
  readonly credentials: Readonly<Record<string, unknown>>
}

/** One media file of a post, as a publisher reads it. */
export interface PublishingMedia {
  readonly id: string
  readonly kind: MediaKind
  /** The type detected from the bytes, e.g. `image/png`. */
  readonly mimeType: string
  readonly bytes: number
  readonly width: number | null
  readonly height: number | null
  readonly altText: string | null
  /** The whole file (publishers upload files of at most 100 MB). */
  readonly read: Effect.Effect<Uint8Array, PublishFailure>
}

/** What a publisher is asked to put out: one post on one account. */
export interface PublishRequest {
  /**
   * The delivery's id, the same on every try of it: a publisher that can make the network refuse a second copy
   * (a record key, an idempotency key) derives that from it.
   */
  readonly deliveryId: string
  /** When the delivery was created, for keys that must carry a time (AT Protocol record keys). */
  readonly createdAt: Date
  /** The post it is a copy of (the own feed's entries are addressed by it). */
  readonly postId: string
  readonly account: PublishingAccount
  readonly text: string
  readonly media: ReadonlyArray<PublishingMedia>
  /** Number the posts of a thread ("1/3"), when the text is split; off unless the user asked. */
  readonly numberThread: boolean
  /** Mastodon's visibility and content warning; other publishers ignore them. */
  readonly visibility?: "public" | "unlisted" | "private" | undefined
  readonly contentWarning?: string | undefined
}

/** Where a published post lives on its network. */
export interface Published {
  /** The network's id of the (first) post, e.g. an `at://` URI or a status id. */
  readonly remoteId: string
  /** Its public address. */
  readonly url: string
}

/**
 * Why a publish failed. `temporary`: try again later (`retryAfterMs` when the network said when: a rate limit's
 * `Retry-After`); `rejected`: the network refuses this post (trying again will not help); `credentials`: the
 * account's credentials no longer work, so it needs reconnecting.
 */
export class PublishFailure extends Schema.TaggedError<PublishFailure>()("PublishFailure", {
  kind: Schema.Literal("temporary", "rejected", "credentials"),
  message: Schema.String,
  retryAfterMs: Schema.optional(Schema.Number)
}) {}

/** The profile an account's credentials open, checked when it is connected. */
export interface VerifiedAccount {
  readonly handle: string
  readonly displayName: string | null
  readonly serviceUrl: string
  /** The credentials to keep (a publisher may exchange what the person gave for a lasting token). */
  readonly credentials: Readonly<Record<string, unknown>>
}

/** Puts posts out on one platform. One small adapter module per platform; `Publishers` holds those served. */
export interface PlatformPublisher {
  readonly platform: Platform
  /** Checks credentials a person gave when connecting, and answers the account they open. */
  readonly verify: (
    serviceUrl: string,
    credentials: Readonly<Record<string, unknown>>
  ) => Effect.Effect<VerifiedAccount, PublishFailure>
  /** Publishes; a text over the platform's length becomes a thread where the platform allows it. */
  readonly publish: (request: PublishRequest) => Effect.Effect<Published, PublishFailure>
  /**
   * The post an earlier try of this delivery already made, if any: a delivery taken over after a crash asks this
   * before publishing again, so a post never goes out twice.
   */
  readonly findPublished: (request: PublishRequest) => Effect.Effect<Option.Option<Published>, PublishFailure>
}

/** The publishers this server has, by platform (the own feed's is the core's). */
export class Publishers extends Context.Tag("svc/scheduling/Publishers")<
  Publishers,
  ReadonlyMap<Platform, PlatformPublisher>
>() {}
