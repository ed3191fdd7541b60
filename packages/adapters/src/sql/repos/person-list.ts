import type * as SqlClient from "@effect/sql/SqlClient"
import type { PageRequest } from "@svc/core/shared"
import type { CreatedRange } from "@svc/core/store"

/**
 * The filters the store's lists of people (customers, the email list) share, over a table aliased `c` with
 * `workspace_id`, `email`, `created_at` and `id`: a tag, by id or by name in any case, and the created-at window
 * with the page's keyset, newest first.
 */
export const personListFilters = (
  sql: SqlClient.SqlClient,
  filter: { readonly tag?: string | undefined } & CreatedRange,
  page: PageRequest
) => {
  const tag =
    filter.tag === undefined
      ? sql``
      : sql`AND EXISTS (SELECT 1 FROM store_person_tags pt JOIN store_tags t ON t.id = pt.tag_id
                        WHERE pt.workspace_id = c.workspace_id AND pt.email = c.email
                          AND (t.id = ${filter.tag} OR t.name_key = ${filter.tag.toLowerCase()}))`
  const createdAfter = filter.after ? sql`AND c.created_at > ${filter.after}` : sql``
  const createdBefore = filter.before ? sql`AND c.created_at < ${filter.before}` : sql``
  const after = page.after ? sql`AND (c.created_at, c.id) < (${page.after.createdAt}, ${page.after.id})` : sql``
  return sql`${tag} ${createdAfter} ${createdBefore} ${after}`
}
