import { Effect, Schema } from "effect"
import { Platform } from "../items/schema.js"
import { Cursor, Limit } from "../shared/paging.js"
import { dateFilter, Timestamp } from "../shared/time.js"
import { defineTool } from "../tools/tool.js"
import { ItemType } from "../items/schema.js"
import { searchQueryField } from "../items/search-query.js"
import { Highlights } from "./service.js"

const NextCursor = Schema.optional(
  Schema.String.annotations({
    description: "Pass as cursor (with the same query and filters) to read the next page; absent on the last page."
  })
)

const filters = {
  query: Schema.optional(searchQueryField(" Omit or empty: newest first.")),
  itemId: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
      description: "Only from this item (link_…, post_…)."
    })
  ),
  createdAfter: Schema.optional(dateFilter("Saved at or after this ISO 8601 date or time, e.g. 2026-11-01.")),
  createdBefore: Schema.optional(dateFilter("Saved before this ISO 8601 date or time.")),
  limit: Schema.optional(Limit),
  cursor: Schema.optional(Cursor)
}

const matchFields = {
  snippet: Schema.NullOr(Schema.String).annotations({
    description: "The matching passage with matching words wrapped in **; null when listing without a query."
  }),
  rank: Schema.Number.annotations({ description: "Relevance (PostgreSQL ts_rank); 0 when listing without a query." })
}

const Highlight = Schema.Struct({
  id: Schema.String.annotations({ description: "Highlight id (hl_…)." }),
  itemId: Schema.String.annotations({ description: "The item the passage was saved from." }),
  itemType: ItemType,
  itemTitle: Schema.String.annotations({ description: "Title of that item." }),
  text: Schema.String.annotations({ description: "The highlighted passage." }),
  note: Schema.String.annotations({ description: "What the person wrote about it; empty when nothing." }),
  ...matchFields,
  createdAt: Timestamp
}).annotations({ description: "A passage saved from an item." })

const Capture = Schema.Struct({
  id: Schema.String.annotations({ description: "Capture id (cap_…)." }),
  itemId: Schema.NullOr(Schema.String).annotations({
    description: "The library item it was saved with (link_…, post_…, ad_…), or null."
  }),
  sourceUrl: Schema.NullOr(Schema.String).annotations({ description: "Address it was captured from, or null." }),
  platform: Schema.NullOr(Platform).annotations({
    description: "Social platform of a captured post or ad; null for web pages."
  }),
  title: Schema.String.annotations({ description: "Title of what was captured." }),
  text: Schema.String.annotations({ description: "The captured text." }),
  ...matchFields,
  createdAt: Timestamp
}).annotations({ description: "Text captured from the web or a social post." })

/** The Highlights & captures group: full-text search over saved passages and clips. */
export const highlightTools = Effect.gen(function* () {
  const highlights = yield* Highlights
  return [
    defineTool({
      name: "svc_search_highlights",
      title: "Search highlights",
      group: "Highlights & captures",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Search highlights (passages saved from items) by words, best first with a snippet, or newest first; filter by item and date. Skips trashed items. Free. svc_save_links_to_board saves highlights.",
      input: filters,
      output: {
        highlights: Schema.Array(Highlight).annotations({
          description: "Matching highlights, most relevant first (newest first without a query)."
        }),
        nextCursor: NextCursor
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const page = yield* highlights.searchHighlights(id, input)
          return { highlights: page.rows, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }
        })
    }),
    defineTool({
      name: "svc_search_captures",
      title: "Search captures",
      group: "Highlights & captures",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Search captures (text saved with links, posts and ads) by words, best first with a snippet, or newest first; filter by item and date. Skips trashed items. Free. Saving links, posts or ads with their text makes captures.",
      input: filters,
      output: {
        captures: Schema.Array(Capture).annotations({
          description: "Matching captures, most relevant first (newest first without a query)."
        }),
        nextCursor: NextCursor
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const page = yield* highlights.searchCaptures(id, input)
          return {
            captures: page.rows.map((row) => ({
              ...row,
              platform: Schema.is(Platform)(row.platform) ? row.platform : null
            })),
            ...(page.nextCursor ? { nextCursor: page.nextCursor } : {})
          }
        })
    })
  ]
})
