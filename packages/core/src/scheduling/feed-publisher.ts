import { Effect, Option } from "effect"
import { type PlatformPublisher, PublishFailure } from "./publisher.js"

/**
 * The publisher of the workspace's own feed: the target that needs nothing outside. Going out there is the
 * delivery's record itself (the feed pages list the posts whose feed delivery is `posted`), so publishing answers
 * the post's address on the feed, and a repeat answers the same one.
 */
export const feedPublisher = (feedUrl: (feedHandle: string) => string): PlatformPublisher => ({
  platform: "feed",
  verify: () =>
    Effect.fail(new PublishFailure({ kind: "rejected", message: "the own feed needs no account to be connected" })),
  publish: (request) =>
    Effect.succeed({ remoteId: request.postId, url: `${feedUrl(request.account.handle)}/${request.postId}` }),
  findPublished: () => Effect.succeed(Option.none())
})
