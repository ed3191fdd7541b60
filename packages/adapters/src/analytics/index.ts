/** Readers of published posts' metrics from outside networks, one module per platform (`MetricsReader` of the core). */
export { type BlueskyMetricsOptions, makeBlueskyMetricsReader } from "./bluesky.js"
export { type MastodonMetricsOptions, makeMastodonMetricsReader } from "./mastodon.js"
