/** Publishers of posts to outside networks, one module per platform (`PlatformPublisher` of the core). */
export { type BlueskyPublisherOptions, makeBlueskyPublisher } from "./bluesky.js"
export { idempotencyKey, type MastodonPublisherOptions, makeMastodonPublisher } from "./mastodon.js"
