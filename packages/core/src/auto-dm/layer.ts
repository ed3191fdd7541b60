import { Layer } from "effect"
import { type EngagementInbox, EngagementInboxes } from "./ports.js"
import { AutoDmSending } from "./sending.js"
import { AutoDm } from "./service.js"

/**
 * The auto-DM services: rules (`AutoDm`) and the reading and sending of the worker (`AutoDmSending`). Needs the ports:
 * `AutoDmRulesRepo`, `AutoDmWorkRepo`, `EngagementInboxes`, and Scheduling's `SocialAccountsRepo`, `PostsRepo` and
 * `CredentialSealer`, with `RateLimiter`, `Ids` and `Transactor`.
 */
export const AutoDmLive = Layer.merge(AutoDm.Default, AutoDmSending.Default)

/** `EngagementInboxes` holding `inboxes` by platform (none: every auto-DM rule is refused as unable to send). */
export const EngagementInboxesLive = (inboxes: ReadonlyArray<EngagementInbox> = []) =>
  Layer.succeed(EngagementInboxes, new Map(inboxes.map((inbox) => [inbox.platform, inbox])))
