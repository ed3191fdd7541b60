import { Effect, Schema } from "effect"
import { Cursor, decodeCursor, encodeCursor, Limit } from "../shared/paging.js"
import { Timestamp } from "../shared/time.js"
import { PLATFORMS } from "../scheduling/platforms.js"
import { defineTool } from "../tools/tool.js"
import { type AutoDmRule, KEYWORD_MAX, KEYWORDS_MAX, LINK_MAX, TEMPLATE_MAX } from "./schema.js"
import { AutoDm, type RuleFields } from "./service.js"

const Id = Schema.String.pipe(Schema.maxLength(100))
const RuleId = Id.annotations({ description: "Rule id (adm_…) from svc_list_auto_dm_rules." })
const Delivery = Schema.Literal("dm", "reply", "dmOrReply")

const fields = {
  accountId: Id.annotations({ description: "Connected account (sac_…) from svc_list_schedules." }),
  postId: Id.annotations({ description: "A post (post_…) that went out on the account; omit for all its posts." }),
  keywords: Schema.Array(Schema.String.pipe(Schema.maxLength(KEYWORD_MAX)))
    .pipe(Schema.minItems(1), Schema.maxItems(KEYWORDS_MAX))
    .annotations({
      description: `1-${KEYWORDS_MAX} words or phrases (≤${KEYWORD_MAX} chars), whole-word, any case; ["*"] matches all.`
    }),
  template: Schema.String.pipe(Schema.maxLength(TEMPLATE_MAX)).annotations({
    description: `Message, 1-${TEMPLATE_MAX} chars; placeholders {name}, {handle}, {link}.`
  }),
  link: Schema.String.pipe(Schema.maxLength(LINK_MAX)).annotations({
    description: "http(s) address {link} stands for; needed when the template uses it."
  }),
  delivery: Delivery.annotations({
    description: "dm, reply, or dmOrReply (default): a DM where allowed, else a reply."
  }),
  enabled: Schema.Boolean.annotations({ description: "false pauses the rule; default true." })
}

const RuleRecord = Schema.Struct({
  id: Schema.String.annotations({ description: "Rule id (adm_…)." }),
  accountId: Schema.String,
  platform: Schema.Literal(...PLATFORMS),
  postId: Schema.NullOr(Schema.String).annotations({ description: "null: every post and mention of the account." }),
  keywords: Schema.Array(Schema.String),
  template: Schema.String,
  link: Schema.NullOr(Schema.String),
  delivery: Delivery,
  enabled: Schema.Boolean,
  sentCount: Schema.Int.annotations({ description: "Messages sent." }),
  failedCount: Schema.Int.annotations({ description: "Messages that failed for good." }),
  createdAt: Timestamp,
  updatedAt: Timestamp
})

/** A rule as the auto-DM tools answer it. */
export const ruleRecord = (rule: AutoDmRule): typeof RuleRecord.Type => ({
  id: rule.id,
  accountId: rule.accountId,
  platform: rule.platform,
  postId: rule.postId,
  keywords: rule.keywords,
  template: rule.template,
  link: rule.link,
  delivery: rule.delivery,
  enabled: rule.enabled,
  sentCount: rule.sentCount,
  failedCount: rule.failedCount,
  createdAt: rule.createdAt,
  updatedAt: rule.updatedAt
})

const ruleOutput = { rule: RuleRecord.annotations({ description: "The rule as it now is." }) }

/** Auto-DM's tools: rules that answer replies and mentions of a connected account with one message each. */
export const autoDmTools = Effect.gen(function* () {
  const autoDm = yield* AutoDm

  return [
    defineTool({
      name: "svc_list_auto_dm_rules",
      title: "List auto-DM rules",
      group: "Scheduling",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "List auto-DM rules, newest first, with their keywords, template, delivery and sent/failed counts. Filter by account or post. Paged. Free.",
      input: {
        accountId: Schema.optional(fields.accountId.annotations({ description: "Only this account's rules." })),
        postId: Schema.optional(fields.postId.annotations({ description: "Only rules on this post." })),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        rules: Schema.Array(RuleRecord).annotations({ description: "The rules, newest first." }),
        nextCursor: Schema.optional(Schema.String.annotations({ description: "Cursor of the next page, if any." }))
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const after = input.cursor === undefined ? undefined : yield* decodeCursor(input.cursor)
          const page = yield* autoDm.list(
            id,
            { accountId: input.accountId, postId: input.postId },
            { limit: input.limit ?? 25, after }
          )
          return { rules: page.rows.map(ruleRecord), ...(page.next ? { nextCursor: encodeCursor(page.next) } : {}) }
        })
    }),
    defineTool({
      name: "svc_create_auto_dm_automation",
      title: "Create auto-DM automation",
      group: "Scheduling",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      description:
        "Create a rule: new replies/mentions of a connected account (one post or all) with a keyword get one message per person, sent by the worker (bluesky: chat DM or reply; mastodon: direct mention or reply). Returns the rule. Free.",
      input: {
        accountId: fields.accountId,
        postId: Schema.optional(fields.postId),
        keywords: fields.keywords,
        template: fields.template,
        link: Schema.optional(fields.link),
        delivery: Schema.optional(fields.delivery),
        enabled: Schema.optional(fields.enabled)
      },
      output: ruleOutput,
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const postId = input.postId === undefined || input.postId === "" ? null : input.postId
          return { rule: ruleRecord(yield* autoDm.create(id, { ...input, postId })) }
        })
    }),
    defineTool({
      name: "svc_update_auto_dm_automation",
      title: "Update auto-DM automation",
      group: "Scheduling",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Change an auto-DM rule (fields left out stay); enabled false pauses it. People already answered are not answered again. Returns the rule. Free.",
      input: {
        ruleId: RuleId,
        postId: Schema.optional(fields.postId.annotations({ description: 'Post (post_…); "" for all posts.' })),
        keywords: Schema.optional(fields.keywords),
        template: Schema.optional(fields.template),
        link: Schema.optional(fields.link.annotations({ description: 'http(s) address for {link}; "" clears.' })),
        delivery: Schema.optional(fields.delivery),
        enabled: Schema.optional(fields.enabled)
      },
      output: ruleOutput,
      handler: ({ ruleId, postId, link, ...input }, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const changes: RuleFields = {
            ...input,
            postId: postId === undefined ? undefined : postId === "" ? null : postId,
            link: link === undefined ? undefined : link === "" ? null : link
          }
          return { rule: ruleRecord(yield* autoDm.update(id, ruleId, changes)) }
        })
    }),
    defineTool({
      name: "svc_delete_auto_dm_automation",
      title: "Delete auto-DM automation",
      group: "Scheduling",
      write: true,
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
      description:
        "Delete an auto-DM rule for good; messages it has not sent yet are dropped. Returns it as it was. Free.",
      input: { ruleId: RuleId },
      output: {
        deleted: Schema.Literal(true).annotations({ description: "Always true on success." }),
        ...ruleOutput
      },
      handler: ({ ruleId }, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { deleted: true as const, rule: ruleRecord(yield* autoDm.remove(id, ruleId)) }
        })
    })
  ]
})
