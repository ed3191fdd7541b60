import { type ItemSummary, ItemType } from "@svc/core/items"
import { encodeCursor, type Page, type PageKey, type PageRequest, Timestamp } from "@svc/core/shared"
import { Schema } from "effect"

// The workspace steps' answers, snake_case as the automation tool reads them. Each answer is a schema, encoded on the
// way out and written into the steps' OpenAPI document, so the two cannot drift.

/** Where `{api_url}` is on this server: the public URL followed by this prefix. */
export const API_PREFIX = "/api"
/** Where `{scheduling_url}` is on this server: the public URL followed by this prefix. */
export const SCHEDULING_PREFIX = "/scheduling"

/** Success of a step: `ok: true`. */
export const Ok = Schema.Literal(true)

/** A time on the wire: ISO 8601 in UTC. */
export const Time = Timestamp

/** One item of a workspace, as the list steps show it. */
export const ItemRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Item id (note_…, link_…, board_…, …): the trigger's dedupe key." }),
  type: ItemType,
  title: Schema.String,
  url: Schema.NullOr(Schema.String).annotations({ description: "Web address of links, posts and media; else null." }),
  created_at: Time,
  updated_at: Time
})

/** An item summary as a row. */
export const itemRow = (item: ItemSummary): typeof ItemRow.Type => ({
  id: item.id,
  type: item.type,
  title: item.title,
  url: item.url,
  created_at: item.createdAt,
  updated_at: item.updatedAt
})

/**
 * A page of a list step: `{ ok, data, has_more, next_cursor }`, newest first. `next_cursor` is passed as
 * `starting_after` for the next page; null when the page is empty and none was asked with.
 */
export const PageAnswer = <A, I>(row: Schema.Schema<A, I>) =>
  Schema.Struct({
    ok: Ok,
    data: Schema.Array(row).annotations({ description: "Newest first." }),
    has_more: Schema.Boolean.annotations({ description: "true when another page follows." }),
    next_cursor: Schema.NullOr(Schema.String).annotations({
      description:
        "Pass as starting_after for the next page; points after the last row (on the last page too), so a poller may keep it."
    })
  })

/** The page answer of `page` (asked with `request`), its rows mapped by `toRow`. */
export const pageAnswer = <A extends { readonly createdAt: Date; readonly id: string }, B>(
  page: Page<A>,
  request: PageRequest,
  toRow: (row: A) => B
) => {
  const last = page.rows[page.rows.length - 1]
  const key: PageKey | undefined =
    page.next ?? (last === undefined ? request.after : { createdAt: last.createdAt, id: last.id })
  return {
    ok: true as const,
    data: page.rows.map(toRow),
    has_more: page.next !== undefined,
    next_cursor: key === undefined ? null : encodeCursor(key)
  }
}
