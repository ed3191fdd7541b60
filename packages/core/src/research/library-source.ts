import { Option } from "effect"
import type { SavedSocialItem } from "./ports.js"
import { Creator, RESEARCH_PLATFORMS, type ResearchPlatform, SocialPost } from "./schema.js"

// The workspace's library read as research data: saved posts and links become posts, their authors creators. A
// library keeps no engagement (it saved the words, not the counts), so metrics are null and say so.

const researchPlatform = (platform: string | null): ResearchPlatform | null =>
  platform !== null && (RESEARCH_PLATFORMS as ReadonlyArray<string>).includes(platform)
    ? (platform as ResearchPlatform)
    : null

const NO_METRICS = { likes: null, replies: null, reposts: null, quotes: null, views: null } as const

/** A saved item as a research post (`createdAt` is when it was saved: the library does not know when it was posted). */
export const postOfSaved = (item: SavedSocialItem): SocialPost =>
  new SocialPost({
    platform: item.platform ?? "web",
    id: item.id,
    url: item.url,
    author: { handle: item.author ?? "", name: item.author ?? "" },
    title: item.type === "link" ? item.title : null,
    text: item.text,
    format: item.type === "link" ? "link" : "text",
    mediaCount: 0,
    createdAt: item.createdAt,
    metrics: NO_METRICS,
    source: "library"
  })

/** The author of saved posts as a creator, when their platform is one research knows. */
export const creatorOfSaved = (author: {
  readonly platform: string
  readonly author: string
  readonly posts: number
}): Option.Option<Creator> => {
  const platform = researchPlatform(author.platform)
  if (platform === null) return Option.none()
  const handle = author.author.replace(/^@/, "")
  return Option.some(
    new Creator({
      platform,
      id: `library:${platform}:${handle.toLowerCase()}`,
      handle,
      name: author.author,
      bio: null,
      url: null,
      avatarUrl: null,
      followers: null,
      following: null,
      posts: author.posts,
      source: "library"
    })
  )
}
