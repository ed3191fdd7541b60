import * as SqlClient from "@effect/sql/SqlClient"
import { type ClaimedHook, type FeedPosition, type InstantHookEventName, InstantHooksRepo } from "@svc/core/webhooks"
import { Effect, Layer, Option } from "effect"
import { feedRowsFilter } from "./feed-filter.js"

interface HookRow {
  readonly id: string
  readonly workspace_id: string
  readonly event: InstantHookEventName
  readonly target_url: string
  readonly after_at: Date
  readonly after_id: string
  readonly failing_since: Date | null
  readonly claim_token: string
  readonly created_at: Date
}

const toClaimed = (row: HookRow): ClaimedHook => ({
  id: row.id,
  workspaceId: row.workspace_id,
  event: row.event,
  targetUrl: row.target_url,
  after: { at: row.after_at, eventId: row.after_id },
  failingSince: row.failing_since,
  claimToken: row.claim_token,
  createdAt: row.created_at
})

/**
 * `InstantHooksRepo` over SQL. A feed is read from the event log with the same filters as the feed routes
 * (`StoreFeedRepoSql`), in keyset order (created_at, id) so a hook's place is one row comparison. Claims are one
 * `UPDATE … RETURNING` over rows locked with `SKIP LOCKED`, so concurrent instances take different hooks; each
 * claim sets a lease and a fresh token, and only the token's holder moves a hook on. Times come from the caller.
 */
export const InstantHooksRepoSql = Layer.effect(
  InstantHooksRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    return {
      create: (hook, max) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              // Subscribes in one store count one after another (NO KEY UPDATE leaves foreign-key checks alone).
              yield* sql`SELECT id FROM workspaces WHERE id = ${hook.workspaceId} FOR NO KEY UPDATE`
              const [same] = yield* sql<{ readonly id: string }>`
                SELECT id FROM instant_hooks
                WHERE workspace_id = ${hook.workspaceId} AND event = ${hook.event} AND target_url = ${hook.targetUrl}`
              if (same !== undefined) return { _tag: "existing", id: same.id } as const
              const [counted] = yield* sql<{ readonly count: number }>`
                SELECT count(*)::int AS count FROM instant_hooks WHERE workspace_id = ${hook.workspaceId}`
              if (Number(counted?.count ?? 0) >= max) return { _tag: "full" } as const
              yield* sql`
                INSERT INTO instant_hooks (id, workspace_id, event, target_url, after_at, after_id, next_push_at,
                                           created_at)
                VALUES (${hook.id}, ${hook.workspaceId}, ${hook.event}, ${hook.targetUrl}, ${hook.after.at},
                        ${hook.after.eventId}, ${hook.createdAt}, ${hook.createdAt})`
              return { _tag: "created", id: hook.id } as const
            })
          )
          .pipe(Effect.orDie),

      remove: (workspaceId, id) =>
        sql`DELETE FROM instant_hooks WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),

      newest: (workspaceId, feed) =>
        sql<{ readonly id: string; readonly created_at: Date }>`
          SELECT id, created_at FROM events WHERE ${feedRowsFilter(sql, workspaceId, feed)}
          ORDER BY created_at DESC, id DESC LIMIT 1`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row): FeedPosition => ({ at: row.created_at, eventId: row.id }))
          ),
          Effect.orDie
        ),

      claim: (request) =>
        sql<HookRow>`
          UPDATE instant_hooks AS h SET lease_until = ${request.leaseUntil}, claim_token = ${request.claimToken}
          FROM (
            SELECT id FROM instant_hooks
            WHERE next_push_at <= ${request.now} AND (lease_until IS NULL OR lease_until <= ${request.now})
            ORDER BY next_push_at
            LIMIT ${request.limit}
            FOR UPDATE SKIP LOCKED
          ) AS picked
          WHERE h.id = picked.id
          RETURNING h.id, h.workspace_id, h.event, h.target_url, h.after_at, h.after_id, h.failing_since,
                    h.claim_token, h.created_at`.pipe(
          Effect.map((rows) => rows.map(toClaimed)),
          Effect.orDie
        ),

      entriesAfter: (workspaceId, feed, window, limit) => {
        const listed = feed.listedId === "sale" ? sql`data->>'id'` : sql`id`
        return sql<{ readonly id: string; readonly created_at: Date; readonly listed_id: string | null }>`
          SELECT id, created_at, ${listed} AS listed_id FROM events
          WHERE ${feedRowsFilter(sql, workspaceId, feed)}
            AND (created_at, id) > (${window.after.at}::timestamptz, ${window.after.eventId}::text)
            AND created_at > ${window.since} AND created_at <= ${window.until}
          ORDER BY created_at, id LIMIT ${limit}`.pipe(
          Effect.map((rows) =>
            rows.map((row) => ({
              // A sale event always names its row; the event's id stands in should one not.
              listedId: row.listed_id ?? row.id,
              position: { at: row.created_at, eventId: row.id }
            }))
          ),
          Effect.orDie
        )
      },

      record: (id, claimToken, outcome) => {
        const after = Option.getOrNull(outcome.after)
        const move = after === null ? sql`` : sql`after_at = ${after.at}, after_id = ${after.eventId},`
        return sql`
          UPDATE instant_hooks SET ${move} failing_since = ${outcome.failingSince}
          WHERE id = ${id} AND claim_token = ${claimToken} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
      },

      release: (id, claimToken, nextPushAt) =>
        sql`
          UPDATE instant_hooks SET next_push_at = ${nextPushAt}, lease_until = NULL, claim_token = NULL
          WHERE id = ${id} AND claim_token = ${claimToken}`.pipe(Effect.asVoid, Effect.orDie),

      drop: (id, claimToken) =>
        sql`DELETE FROM instant_hooks WHERE id = ${id} AND claim_token = ${claimToken} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    }
  })
)
