import { Effect, Schema } from "effect"
import { Cursor, Limit } from "../shared/paging.js"
import { defineTool } from "../tools/tool.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { Tag } from "./schema.js"
import { ItemIdField, NextCursorField, TaggedItem } from "./tool-fields.js"
import { Tags } from "./tags.js"

const TagNames = (what: string) =>
  Schema.optional(
    Schema.Array(
      Schema.String.pipe(Schema.minLength(1), Schema.maxLength(LIBRARY_LIMITS.tagCharacters)).annotations({
        description: `A tag name, 1 to ${LIBRARY_LIMITS.tagCharacters} characters (case ignored).`
      })
    )
      .pipe(Schema.maxItems(LIBRARY_LIMITS.tagsPerCall))
      .annotations({ description: what })
  )

/** Tag tools: add/remove tags on items, list the workspace's tags. */
export const tagTools = Effect.gen(function* () {
  const tags = yield* Tags
  return [
    defineTool({
      name: "svc_list_tags",
      title: "List tags",
      group: "Workspace",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "List the workspace's tags in name order, each with how many items (not in the trash) carry it. Free. Find the items of a tag with svc_find_workspace_items or svc_list_workspace_items with tag.",
      input: { limit: Schema.optional(Limit), cursor: Schema.optional(Cursor) },
      output: {
        tags: Schema.Array(Tag).annotations({ description: "The tags, by name." }),
        nextCursor: NextCursorField
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const page = yield* tags.list(id, input)
          return { tags: page.tags, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }
        })
    }),
    defineTool({
      name: "svc_update_item_tags",
      title: "Update item tags",
      group: "Boards & documents",
      write: true,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description: `Add and remove tags on items by name (case ignored; new names are created) and return each item with all its tags. Free. Up to ${LIBRARY_LIMITS.urlsPerCall} items and ${LIBRARY_LIMITS.tagsPerCall} names per call. List tags with svc_list_tags.`,
      input: {
        itemIds: Schema.Array(ItemIdField)
          .pipe(Schema.minItems(1), Schema.maxItems(LIBRARY_LIMITS.urlsPerCall))
          .annotations({ description: `Items to tag (any kind), 1 to ${LIBRARY_LIMITS.urlsPerCall}.` }),
        add: TagNames("Tag names to add; missing tags are created."),
        remove: TagNames("Tag names to take off; the tags themselves stay in the workspace.")
      },
      output: {
        items: Schema.Array(TaggedItem).annotations({ description: "Each item with all its tags now, in input order." })
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const rows = yield* tags.updateItemTags(id, input)
          return {
            items: rows.map(({ item, tags: names }) => ({
              id: item.id,
              type: item.type,
              title: item.title,
              tags: names
            }))
          }
        })
    })
  ]
})
