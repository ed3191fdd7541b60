/** Auto-DM: rules that answer replies and mentions of a connected account, the inbox port, and the worker. */
export { AutoDmLive, EngagementInboxesLive } from "./layer.js"
export {
  AutoDmRulesRepo,
  AutoDmWorkRepo,
  type ClaimedInbox,
  type ClaimedSend,
  type EngagementInbox,
  EngagementInboxes,
  type InboxRead,
  MessageFailure,
  type MessagingAccount,
  type OutgoingMessage,
  type RuleFilter,
  type SendRecord,
  type SentMessage,
  type WorkClaim
} from "./ports.js"
export { checkKeywords, checkTemplate, hasKeyword, PLACEHOLDERS, renderMessage, ruleMatches } from "./rules.js"
export * from "./schema.js"
export { AutoDmSending, POLL_INTERVAL_MS, sendRetryDelayMs } from "./sending.js"
export { AutoDm, type RuleFields } from "./service.js"
export { autoDmTools, ruleRecord } from "./tools.js"
export {
  type AutoDmWorkerOptions,
  AutoDmWorkerLive,
  claimDueInboxes,
  claimDueSends,
  DEFAULT_AUTO_DM_WORKER,
  processAutoDm,
  runAutoDmWorker
} from "./worker.js"
