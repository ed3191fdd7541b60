/** Scheduling and publishing: platforms and their rules, posts, schedules, accounts, the publisher port and worker. */
export { makeAccountOpener, type OpenAccount } from "./accounts.js"
export { type CheckedMedia, checkForPlatform } from "./checks.js"
export {
  CONNECT_LINK_MS,
  type ConnectGrant,
  ConnectLinks,
  ConnectLinksLive,
  connectPath,
  readConnectLink
} from "./connect-links.js"
export { feedPublisher } from "./feed-publisher.js"
export { type MastodonApp, MastodonApps } from "./mastodon-apps.js"
export type { MediaKind } from "../media/schema.js"
export { liveLinks } from "./live-links.js"
export { isPlatform, PLATFORM_RULES, PLATFORMS, type Platform, type PlatformRules } from "./platforms.js"
export {
  type ClaimedDelivery,
  CredentialSealer,
  type DeliveryClaim,
  type DeliveryRecord,
  type PostFilter,
  PostingSchedulesRepo,
  PostMediaFiles,
  PostsRepo,
  SocialAccountsRepo
} from "./ports.js"
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
export { PostPublishing, postEventData, publishRetryDelayMs } from "./publishing.js"
export * from "./schema.js"
export { type PostFields, Scheduling, type SchedulingOverview } from "./service.js"
export { checkSlots, checkTimeZone, upcomingSlots } from "./slots.js"
export { graphemeCount, splitThread } from "./thread-split.js"
export { postRecord, schedulingTools } from "./tools.js"
export {
  claimDueDeliveries,
  DEFAULT_PUBLISH_WORKER,
  PublishWorkerLive,
  type PublishWorkerOptions,
  publishDuePosts,
  runPublishWorker
} from "./worker.js"
export { SchedulingLive, SchedulingPortsLive } from "./layer.js"
