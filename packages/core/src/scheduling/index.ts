/** Scheduling and publishing: platforms and their rules, the publisher port, and thread splitting. */
export {
  isPlatform,
  type MediaKind,
  PLATFORM_RULES,
  PLATFORMS,
  type Platform,
  type PlatformRules
} from "./platforms.js"
export {
  type PlatformPublisher,
  type Published,
  PublishFailure,
  Publishers,
  type PublishingAccount,
  type PublishingMedia,
  type PublishRequest,
  type VerifiedAccount
} from "./publisher.js"
export { graphemeCount, splitThread } from "./thread-split.js"
