import type { MediaKind } from "../media/schema.js"

/**
 * The platform identifiers a post may name, and what each accepts. `feed` is the workspace's own public feed, the
 * target that needs nothing outside; `bluesky` and `mastodon` have publishers; the rest are known names this server
 * cannot publish to yet (a team adds one publisher file, see `publisher.ts`).
 */
export const PLATFORMS = [
  "feed",
  "bluesky",
  "mastodon",
  "x",
  "linkedin",
  "instagram",
  "tiktok",
  "youtube",
  "threads",
  "facebook",
  "pinterest"
] as const

/** A platform identifier. */
export type Platform = (typeof PLATFORMS)[number]

const known = new Set<string>(PLATFORMS)

/** Whether `name` is a platform identifier. */
export const isPlatform = (name: string): name is Platform => known.has(name)

/** The rules a post must meet on one platform before it is accepted for it. */
export interface PlatformRules {
  /** Longest text of one post, in user-perceived characters (graphemes). */
  readonly textMax: number
  /** Longer text is split into a thread of posts (each within `textMax`), instead of refused. */
  readonly threads: boolean
  /** Most media files on one post (the first post of a thread). */
  readonly mediaMax: number
  /** The kinds accepted; a post mixing a video with anything else is refused where `videoAlone`. */
  readonly kinds: ReadonlyArray<MediaKind>
  readonly videoAlone: boolean
  /** Largest image (and GIF) file, in bytes. */
  readonly imageMaxBytes: number
  /** Largest video file, in bytes. */
  readonly videoMaxBytes: number
  /** Longest alt text, in characters. */
  readonly altTextMax: number
}

const MB = 1024 * 1024

/** The rules of the platforms this server publishes to. */
export const PLATFORM_RULES: Readonly<Partial<Record<Platform, PlatformRules>>> = {
  feed: {
    textMax: 10_000,
    threads: false,
    mediaMax: 10,
    kinds: ["image", "gif", "video", "pdf"],
    videoAlone: false,
    imageMaxBytes: 100 * MB,
    videoMaxBytes: 100 * MB,
    altTextMax: 2_000
  },
  bluesky: {
    textMax: 300,
    threads: true,
    mediaMax: 4,
    kinds: ["image", "gif", "video"],
    videoAlone: true,
    // The PDS refuses image blobs over 1,000,000 bytes.
    imageMaxBytes: 1_000_000,
    videoMaxBytes: 100 * MB,
    altTextMax: 2_000
  },
  mastodon: {
    textMax: 500,
    threads: true,
    mediaMax: 4,
    kinds: ["image", "gif", "video"],
    videoAlone: true,
    imageMaxBytes: 16 * MB,
    videoMaxBytes: 99 * MB,
    altTextMax: 1_500
  }
}
