import type * as SqlClient from "@effect/sql/SqlClient"
import type { FeedSelection } from "@svc/core/store"

/**
 * The `WHERE` condition of a feed's rows in the event log: the workspace, the feed's event types and, for sales,
 * the paid ones that are not test sales (with `memberships`, paid membership sales); with `leaveOutTest`, no test events. The feed routes (`StoreFeedRepoSql`) and the instant
 * hooks (`InstantHooksRepoSql`) read with it, so a pushed id is always one its feed lists.
 */
export const feedRowsFilter = (sql: SqlClient.SqlClient, workspaceId: string, selection: FeedSelection) => {
  const sales =
    selection.paidSales === undefined
      ? sql``
      : selection.paidSales === "all"
        ? sql`AND (type <> 'purchase.created' OR (data->>'status' = 'paid' AND data->>'test' IS DISTINCT FROM 'true'))`
        : sql`AND (type <> 'purchase.created' OR (data->>'status' = 'paid' AND data->>'billing' <> 'one-time'
                AND data->>'test' IS DISTINCT FROM 'true'))`
  const test = selection.leaveOutTest === true ? sql`AND data->>'test' IS DISTINCT FROM 'true'` : sql``
  const reversed =
    selection.leaveOutReversed === true
      ? sql`AND NOT EXISTS (SELECT 1 FROM store_affiliate_commissions c
              WHERE c.workspace_id = events.workspace_id AND c.id = events.data->>'commission_id'
                AND c.reversed_at IS NOT NULL)`
      : sql``
  return sql`workspace_id = ${workspaceId} AND type IN ${sql.in(selection.types)} ${sales} ${test} ${reversed}`
}
