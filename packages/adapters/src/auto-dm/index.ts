/** The platforms' inboxes for auto-DM: reading replies and mentions, and answering them. */
export { type BlueskyInboxOptions, makeBlueskyInbox } from "./bluesky-inbox.js"
export { answerKey, type MastodonInboxOptions, makeMastodonInbox } from "./mastodon-inbox.js"
