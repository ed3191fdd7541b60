import { Effect, Option } from "effect"
import { Conflict, invalid, NotFound } from "../shared/errors.js"
import { excerpt } from "../shared/excerpt.js"
import type { PageRequest } from "../shared/paging.js"
import { Ids } from "../shared/ports.js"
import { withSpan } from "../shared/spans.js"
import { now } from "../shared/time.js"
import { PLATFORMS, type Platform } from "../scheduling/platforms.js"
import { PostsRepo, SocialAccountsRepo } from "../scheduling/ports.js"
import type { SocialAccount } from "../scheduling/schema.js"
import { AutoDmRulesRepo, providedInboxes, type RuleFilter } from "./ports.js"
import { checkKeywords, checkTemplate } from "./rules.js"
import { type AutoDmDelivery, type AutoDmRule, channelsOf, MESSAGING, RULES_MAX } from "./schema.js"

/** The fields a rule is made with; an update keeps what it leaves out. */
export interface RuleFields {
  readonly accountId?: string | undefined
  /** A post (post_…); `null` on an update: every post of the account. */
  readonly postId?: string | null | undefined
  readonly keywords?: ReadonlyArray<string> | undefined
  readonly template?: string | undefined
  /** `null` on an update clears it. */
  readonly link?: string | null | undefined
  readonly delivery?: AutoDmDelivery | undefined
  readonly enabled?: boolean | undefined
}

const ruleNotFound = (id: string) =>
  new NotFound({ message: `no auto-DM rule ${excerpt(id)} in this workspace; list them with svc_list_auto_dm_rules` })

/**
 * Auto-DM rules: which replies and mentions of a connected account get a message, and what it says. Checked when made
 * against what the account's platform can send; answered by the auto-DM worker (`sending.ts`).
 */
export class AutoDm extends Effect.Service<AutoDm>()("svc/auto-dm/AutoDm", {
  effect: Effect.gen(function* () {
    const rules = yield* AutoDmRulesRepo
    const accounts = yield* SocialAccountsRepo
    const posts = yield* PostsRepo
    const inboxes = yield* providedInboxes
    const ids = yield* Ids

    /** Where messages can go from this server, for refusals. */
    const sendable = PLATFORMS.filter((p) => MESSAGING[p] !== undefined && inboxes.has(p))
    const whereTo =
      sendable.length === 0
        ? "this server reads no platform's replies"
        : `rules work on ${sendable.map((p) => `${p} (${MESSAGING[p]?.channels.join(", ")})`).join(" and ")} accounts`

    /** The workspace's account, able to send the delivery's channels. */
    const checkedAccount = (workspaceId: string, accountId: string, delivery: AutoDmDelivery) =>
      Effect.gen(function* () {
        if (accountId === "feed") {
          return yield* invalid(
            "accountId",
            `feed cannot send messages (capability "dm" or "reply" needed, it has neither); ${whereTo}`
          )
        }
        const found = yield* accounts.find(accountId)
        if (Option.isNone(found) || found.value.workspaceId !== workspaceId) {
          return yield* new NotFound({
            message: `no connected account ${excerpt(accountId)} in this workspace; svc_list_schedules lists them`
          })
        }
        const account = found.value
        yield* checkCapability(account.platform, delivery)
        if (account.status === "needs_reconnect") {
          return yield* invalid(
            "accountId",
            `the ${account.platform} account ${account.handle} needs reconnecting (${account.statusReason ?? "its credentials stopped working"}); a person reconnects it at the address svc_connect_social_accounts answers`
          )
        }
        return account
      })

    const checkCapability = (platform: Platform, delivery: AutoDmDelivery) => {
      const capability = MESSAGING[platform]
      if (capability === undefined || !inboxes.has(platform)) {
        return Effect.fail(
          invalid(
            "accountId",
            `${platform} cannot send messages here (capability "dm" or "reply" needed, it has none); ${whereTo}`
          )
        )
      }
      const missing = channelsOf(delivery).filter((c) => !capability.channels.includes(c))
      // "dmOrReply" needs one of its two; "dm" and "reply" need theirs.
      if (delivery === "dmOrReply" ? missing.length === 2 : missing.length > 0) {
        return Effect.fail(
          invalid(
            "delivery",
            `${platform} lacks the capability "${missing.join('" and "')}"; it can send ${capability.channels.join(", ")}`
          )
        )
      }
      return Effect.void
    }

    /** The post's id on the account's platform: the post must have gone out there on that account. */
    const postRemoteId = (workspaceId: string, postId: string, account: SocialAccount) =>
      Effect.gen(function* () {
        const post = yield* posts.find(workspaceId, postId)
        if (Option.isNone(post)) {
          return yield* new NotFound({
            message: `no post ${excerpt(postId)} in this workspace; list them with svc_list_scheduled_posts`
          })
        }
        const delivery = post.value.deliveries.find(
          (d) => d.platform === account.platform && d.status === "posted" && d.remoteId !== null
        )
        if (delivery === undefined || delivery.remoteId === null) {
          return yield* invalid(
            "postId",
            `post ${post.value.id} has not gone out on ${account.platform}; name a post that has, or leave postId out to answer replies to every post`
          )
        }
        if (delivery.socialAccountId !== null && delivery.socialAccountId !== account.id) {
          return yield* invalid("postId", `post ${post.value.id} went out on another ${account.platform} account`)
        }
        return delivery.remoteId
      })

    const create = (workspaceId: string, fields: RuleFields & { readonly accountId: string }) =>
      Effect.gen(function* () {
        const delivery = fields.delivery ?? "dmOrReply"
        const keywords = yield* checkKeywords(fields.keywords ?? [])
        const { template, link } = yield* checkTemplate(fields.template ?? "", fields.link ?? null)
        const account = yield* checkedAccount(workspaceId, fields.accountId, delivery)
        const postId = fields.postId ?? null
        const remoteId = postId === null ? null : yield* postRemoteId(workspaceId, postId, account)
        if ((yield* rules.count(workspaceId)) >= RULES_MAX) {
          return yield* new Conflict({
            message: `this workspace has ${RULES_MAX} auto-DM rules, the most it may hold; delete one with svc_delete_auto_dm_automation`
          })
        }
        const at = yield* now
        const rule: AutoDmRule = {
          id: yield* ids.make("adm_"),
          workspaceId,
          accountId: account.id,
          platform: account.platform,
          postId,
          postRemoteId: remoteId,
          keywords,
          template,
          link,
          delivery,
          enabled: fields.enabled ?? true,
          sentCount: 0,
          failedCount: 0,
          createdAt: at,
          updatedAt: at
        }
        yield* rules.insert(rule)
        return rule
      }).pipe(withSpan("AutoDm.create"))

    const get = (workspaceId: string, ruleId: string) =>
      Effect.flatMap(
        rules.find(workspaceId, ruleId),
        Option.match({ onNone: () => Effect.fail(ruleNotFound(ruleId)), onSome: Effect.succeed })
      )

    const update = (workspaceId: string, ruleId: string, fields: RuleFields) =>
      Effect.gen(function* () {
        const current = yield* get(workspaceId, ruleId)
        const delivery = fields.delivery ?? current.delivery
        const keywords = fields.keywords === undefined ? current.keywords : yield* checkKeywords(fields.keywords)
        const { template, link } = yield* checkTemplate(
          fields.template ?? current.template,
          fields.link === undefined ? current.link : fields.link
        )
        if (fields.delivery !== undefined) yield* checkCapability(current.platform, delivery)
        let postId = current.postId
        let postRemote = current.postRemoteId
        if (fields.postId !== undefined && fields.postId !== current.postId) {
          postId = fields.postId
          if (postId === null) postRemote = null
          else {
            const account = yield* Effect.flatMap(
              accounts.find(current.accountId),
              Option.match({
                onNone: () => Effect.fail(ruleNotFound(ruleId)),
                onSome: Effect.succeed
              })
            )
            postRemote = yield* postRemoteId(workspaceId, postId, account)
          }
        }
        const rule: AutoDmRule = {
          ...current,
          postId,
          postRemoteId: postRemote,
          keywords,
          template,
          link,
          delivery,
          enabled: fields.enabled ?? current.enabled,
          updatedAt: yield* now
        }
        yield* rules.save(rule)
        return rule
      }).pipe(withSpan("AutoDm.update"))

    const remove = (workspaceId: string, ruleId: string) =>
      Effect.flatMap(
        rules.remove(workspaceId, ruleId),
        Option.match({ onNone: () => Effect.fail(ruleNotFound(ruleId)), onSome: Effect.succeed })
      )

    const list = (workspaceId: string, filter: RuleFilter, page: PageRequest) =>
      rules.listPage(workspaceId, filter, page)

    return { sendable, create, get, update, remove, list }
  })
}) {}
