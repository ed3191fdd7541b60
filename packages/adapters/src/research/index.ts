/**
 * Research sources, one module per outside system, each a `SocialSource` of the core (`@svc/core/research`) made from
 * its settings and a `fetch`: the server reads the settings and hands them down (docs/research-sources.md).
 */
export { type BlueskySourceOptions, makeBlueskySource, PUBLIC_APPVIEW_URL } from "./bluesky-source.js"
export {
  DEFAULT_AD_COUNTRIES,
  META_ADS_TOKEN_SETTING,
  META_GRAPH_URL,
  type MetaAdsSourceOptions,
  makeMetaAdsSource
} from "./meta-ads-source.js"
export {
  makeProviderSource,
  PROVIDER_PLATFORMS,
  PROVIDER_URL_SETTING,
  type ProviderPlatform,
  type ProviderSourceOptions
} from "./provider-source.js"
export { COMMON_FEED_PATHS, makeRssSource, type RssSourceOptions } from "./rss-source.js"
export { DEFAULT_DEADLINE, DEFAULT_MAX_BYTES } from "./source-http.js"
export { makeYouTubeSource, YOUTUBE_KEY_SETTING, type YouTubeSourceOptions } from "./youtube-source.js"
