import { type AutoDmDelivery, type AutoDmRule, AutoDmRulesRepo } from "@svc/core/auto-dm"
import type { Platform } from "@svc/core/scheduling"
import { pageOf, withSpan } from "@svc/core/shared"
import { Effect, Layer, Option } from "effect"
import { jsonColumn } from "../json-column.js"
import { LeanSql } from "../lean.js"

interface RuleRow {
  readonly id: string
  readonly workspace_id: string
  readonly account_id: string
  readonly platform: Platform
  readonly post_id: string | null
  readonly post_remote_id: string | null
  readonly keywords: unknown
  readonly template: string
  readonly link: string | null
  readonly delivery: AutoDmDelivery
  readonly enabled: boolean
  readonly sent_count: number
  readonly failed_count: number
  readonly created_at: Date
  readonly updated_at: Date
}

const toRule = (row: RuleRow): AutoDmRule => ({
  id: row.id,
  workspaceId: row.workspace_id,
  accountId: row.account_id,
  platform: row.platform,
  postId: row.post_id,
  postRemoteId: row.post_remote_id,
  keywords: jsonColumn(row.keywords) as ReadonlyArray<string>,
  template: row.template,
  link: row.link,
  delivery: row.delivery,
  enabled: row.enabled,
  sentCount: Number(row.sent_count),
  failedCount: Number(row.failed_count),
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

/** `AutoDmRulesRepo` over SQL. Making a rule makes its account's inbox when it has none (read from then on). */
export const AutoDmRulesRepoSql = Layer.effect(
  AutoDmRulesRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      insert: (r) =>
        Effect.gen(function* () {
          yield* lean`
            INSERT INTO auto_dm_rules (id, workspace_id, account_id, platform, post_id, post_remote_id, keywords,
                                       template, link, delivery, enabled, created_at, updated_at)
            VALUES (${r.id}, ${r.workspaceId}, ${r.accountId}, ${r.platform}, ${r.postId}, ${r.postRemoteId},
                    ${JSON.stringify(r.keywords)}::jsonb, ${r.template}, ${r.link}, ${r.delivery}, ${r.enabled},
                    ${r.createdAt}, ${r.updatedAt})`
          // A new rule is read for at once; an inbox already there keeps its cursor, but is read now.
          yield* lean`
            INSERT INTO auto_dm_inboxes (account_id, cursor, next_poll_at) VALUES (${r.accountId}, NULL, ${r.createdAt})
            ON CONFLICT (account_id) DO UPDATE SET next_poll_at = LEAST(auto_dm_inboxes.next_poll_at, EXCLUDED.next_poll_at)`
        }).pipe(Effect.orDie, withSpan("AutoDmRulesRepo.insert")),
      find: (workspaceId, id) =>
        lean<RuleRow>`SELECT * FROM auto_dm_rules WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRule)),
          Effect.orDie
        ),
      save: (r) =>
        lean`
          UPDATE auto_dm_rules SET post_id = ${r.postId}, post_remote_id = ${r.postRemoteId},
            keywords = ${JSON.stringify(r.keywords)}::jsonb, template = ${r.template}, link = ${r.link},
            delivery = ${r.delivery}, enabled = ${r.enabled}, updated_at = ${r.updatedAt}
          WHERE workspace_id = ${r.workspaceId} AND id = ${r.id}`.pipe(Effect.asVoid, Effect.orDie),
      remove: (workspaceId, id) =>
        lean<RuleRow>`DELETE FROM auto_dm_rules WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING *`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRule)),
          Effect.orDie
        ),
      listPage: (workspaceId, filter, page) =>
        lean<RuleRow>`
          SELECT * FROM auto_dm_rules
          WHERE workspace_id = ${workspaceId}
            AND (${filter.accountId ?? null}::text IS NULL OR account_id = ${filter.accountId ?? null})
            AND (${filter.postId ?? null}::text IS NULL OR post_id = ${filter.postId ?? null})
            AND (${page.after === undefined} OR (created_at, id) < (${page.after?.createdAt ?? null}::timestamptz, ${page.after?.id ?? null}::text))
          ORDER BY created_at DESC, id DESC
          LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toRule), page.limit)),
          Effect.orDie
        ),
      count: (workspaceId) =>
        lean<{ readonly n: number | string }>`SELECT count(*) AS n FROM auto_dm_rules
                                              WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => Number(rows[0]?.n ?? 0)),
          Effect.orDie
        ),
      enabledFor: (accountId) =>
        lean<RuleRow>`SELECT * FROM auto_dm_rules WHERE account_id = ${accountId} AND enabled
                      ORDER BY created_at, id`.pipe(
          Effect.map((rows) => rows.map(toRule)),
          Effect.orDie
        )
    }
  })
)
