import type { PostView } from "./schema.js"

/**
 * The addresses a post went out at, in the order it named its platforms: its event's `links`, and the first one its
 * `url` wherever a post is answered.
 */
export const liveLinks = (post: PostView): ReadonlyArray<string> =>
  post.platforms.flatMap((platform) => {
    const url = post.deliveries.find((d) => d.platform === platform && d.status === "posted")?.url
    return url === undefined || url === null ? [] : [url]
  })
