import { Schema } from "effect"
import { Timestamp } from "../shared/time.js"

/**
 * The networks research reads. `substack` is a Substack publication and `blog` any site with an RSS or Atom feed;
 * `x`, `linkedin`, `instagram` and `tiktok` are answered by the configurable research provider.
 */
export const ResearchPlatform = Schema.Literal(
  "bluesky",
  "youtube",
  "substack",
  "blog",
  "x",
  "linkedin",
  "instagram",
  "tiktok"
).annotations({
  description: "Network: bluesky, youtube, substack, blog (any RSS/Atom site), x, linkedin, instagram, tiktok."
})
export type ResearchPlatform = typeof ResearchPlatform.Type

/** Every research platform, in the order sources are asked. */
export const RESEARCH_PLATFORMS: ReadonlyArray<ResearchPlatform> = ResearchPlatform.literals

const count = (what: string) =>
  Schema.NullOr(Schema.Int).annotations({ description: `${what}; null when the source does not give it.` })

/** A creator (an account, channel or publication) on one network. */
export class Creator extends Schema.Class<Creator>("ResearchCreator")(
  {
    platform: ResearchPlatform,
    id: Schema.String.annotations({ description: "The network's id (a DID, a channel id, a feed URL)." }),
    handle: Schema.String.annotations({ description: "Handle or short name, e.g. alice.bsky.social." }),
    name: Schema.String.annotations({ description: "Display name; the handle when none." }),
    bio: Schema.NullOr(Schema.String).annotations({ description: "Profile text, or null." }),
    url: Schema.NullOr(Schema.String).annotations({ description: "Public profile address; null when unknown." }),
    avatarUrl: Schema.NullOr(Schema.String).annotations({ description: "Picture address, or null." }),
    followers: count("Followers (subscribers)"),
    following: count("Accounts followed"),
    posts: count("Posts (videos, articles) published"),
    source: Schema.String.annotations({ description: "The source that answered (see sources)." })
  },
  { description: "A creator on one network." }
) {}

/** The shape of a post, for studies of formats. */
export const PostFormat = Schema.Literal(
  "text",
  "image",
  "carousel",
  "video",
  "document",
  "link",
  "article"
).annotations({
  description:
    "text, image (one), carousel (several images), video, document (PDF/slides), link (with a link card), article (a blog post or newsletter issue)."
})
export type PostFormat = typeof PostFormat.Type

/** What a post earned, as far as its network tells. */
export const PostMetrics = Schema.Struct({
  likes: count("Likes (favourites)"),
  replies: count("Replies (comments)"),
  reposts: count("Reposts (shares)"),
  quotes: count("Quote posts"),
  views: count("Views")
}).annotations({ description: "Engagement counts; null where the network does not give one." })
export type PostMetrics = typeof PostMetrics.Type

/** A post, video or article read from a network or the workspace's library. */
export class SocialPost extends Schema.Class<SocialPost>("ResearchPost")(
  {
    platform: Schema.String.annotations({
      description: "Network of the post (a research platform, or a saved post's platform)."
    }),
    id: Schema.String.annotations({
      description: "The network's id of the post (an at:// URI, a video id, an item id)."
    }),
    url: Schema.NullOr(Schema.String).annotations({ description: "Public address, or null." }),
    author: Schema.Struct({
      handle: Schema.String.annotations({ description: "Author handle; empty when unknown." }),
      name: Schema.String.annotations({ description: "Author name; empty when unknown." })
    }).annotations({ description: "Who posted it." }),
    title: Schema.NullOr(Schema.String).annotations({
      description: "Title (videos, articles); null for posts without one."
    }),
    text: Schema.String.annotations({
      description: "Text (a description or summary for videos and articles); may be empty."
    }),
    format: PostFormat,
    mediaCount: Schema.Int.annotations({ description: "Images, videos or pages attached." }),
    createdAt: Schema.NullOr(Timestamp).annotations({ description: "When it was published, or null when unknown." }),
    metrics: PostMetrics,
    source: Schema.String.annotations({ description: "The source that answered." })
  },
  { description: "A post, video or article." }
) {}

/** An advertiser as an ad library knows it. */
export class Brand extends Schema.Class<Brand>("ResearchBrand")(
  {
    id: Schema.String.annotations({ description: "The ad library's page id of the brand." }),
    name: Schema.String.annotations({ description: "Brand (page) name." })
  },
  { description: "An advertiser." }
) {}

/** An ad from an ad library. */
export class Ad extends Schema.Class<Ad>("ResearchAd")(
  {
    id: Schema.String.annotations({ description: "The ad library's id of the ad." }),
    brand: Brand,
    title: Schema.NullOr(Schema.String).annotations({ description: "Headline, or null." }),
    text: Schema.String.annotations({ description: "Body text; may be empty." }),
    startedAt: Schema.NullOr(Timestamp).annotations({ description: "First day shown, or null." }),
    endedAt: Schema.NullOr(Timestamp).annotations({ description: "Last day shown; null while it runs." }),
    active: Schema.Boolean.annotations({ description: "Whether it still runs." }),
    placements: Schema.Array(Schema.String).annotations({ description: "Where it shows: facebook, instagram, …" }),
    url: Schema.NullOr(Schema.String).annotations({ description: "The ad's page in the library, or null." }),
    source: Schema.String.annotations({ description: "The source that answered." })
  },
  { description: "An ad." }
) {}

/** How one source did for one answer. */
export const SourceStatus = Schema.Literal("ok", "not-set-up", "failed", "rate-limited", "not-supported").annotations({
  description:
    "ok; not-set-up (the operator has not configured it: see setting); failed (timed out or errored: the answer is from the others); rate-limited (see retryAfterSeconds); not-supported (it cannot answer this kind of question)."
})
export type SourceStatus = typeof SourceStatus.Type

/** One source's part in an answer: every research answer names them, with when their data was fetched. */
export class SourceReport extends Schema.Class<SourceReport>("ResearchSourceReport")(
  {
    source: Schema.String.annotations({ description: "Source: library, bluesky, youtube, rss, meta-ads, provider." }),
    status: SourceStatus,
    fetchedAt: Schema.NullOr(Timestamp).annotations({
      description: "When the data used was fetched from the source (earlier than now when cached); null when none."
    }),
    cached: Schema.Boolean.annotations({ description: "True when the answer came from the cache, not the source." }),
    detail: Schema.NullOr(Schema.String).annotations({ description: "What went wrong or is missing, or null." }),
    setting: Schema.NullOr(Schema.String).annotations({
      description: "With not-set-up: the server setting the operator sets to turn the source on."
    }),
    retryAfterSeconds: Schema.NullOr(Schema.Int).annotations({ description: "With rate-limited: seconds to wait." })
  },
  { description: "How one source contributed." }
) {}
