import { Effect, Schema } from "effect"
import { MediaCard } from "../library/schema.js"
import { Cursor, Limit } from "../shared/paging.js"
import { Timestamp } from "../shared/time.js"
import { defineTool } from "../tools/tool.js"
import { ItemType } from "../items/schema.js"
import { searchQueryField } from "../items/search-query.js"
import { WorkspaceSearch } from "./search.js"

const NextCursor = Schema.optional(
  Schema.String.annotations({ description: "Pass as cursor to read the next page; absent on the last page." })
)

const ItemHit = Schema.Struct({
  id: Schema.String.annotations({ description: "Item id (note_…, link_…, post_…, …)." }),
  type: ItemType,
  title: Schema.String.annotations({ description: "Item title." }),
  url: Schema.NullOr(Schema.String).annotations({
    description: "Web address for links, posts, ads and media; null otherwise."
  }),
  snippet: Schema.String.annotations({
    description: "The best-matching passage of the title, note, body or saved text, matching words wrapped in **."
  }),
  rank: Schema.Number.annotations({
    description: "Relevance (PostgreSQL ts_rank; title matches weigh most, then notes and bodies, then saved text)."
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations({ description: "One matching item." })

const Chat = Schema.Struct({
  id: Schema.String.annotations({
    description: "Chat id (chat_…). Pass it as chatId to svc_ask_custom_ai to continue the chat."
  }),
  title: Schema.String.annotations({ description: "Chat title." }),
  customAIId: Schema.NullOr(Schema.String).annotations({
    description: "The Custom AI the chat is with, or null for a plain chat."
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations({ description: "A chat of the workspace." })

/** Workspace tools that search and read what was saved: search, media cards, chats. */
export const searchTools = Effect.gen(function* () {
  const workspaceSearch = yield* WorkspaceSearch
  return [
    defineTool({
      name: "svc_search_workspace_items",
      title: "Search workspace items",
      group: "Workspace",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Full-text search (English stemming) of the workspace's titles, notes, bodies and saved text: items best first with a snippet and rank, trash left out. Free. Paged (same query and type, with cursor). Then svc_get_note_markdown or svc_read_media_card.",
      input: {
        query: searchQueryField(),
        type: Schema.optional(ItemType),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        items: Schema.Array(ItemHit).annotations({ description: "Matching items, most relevant first." }),
        nextCursor: NextCursor
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const page = yield* workspaceSearch.searchItems(id, input)
          return { items: page.rows, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }
        })
    }),
    defineTool({
      name: "svc_read_media_card",
      title: "Read media card",
      group: "Workspace",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Read one media card: its kind (image, video or gif), address, title, note and the boards it sits on. Free. Add cards with svc_add_media_to_board.",
      input: {
        mediaId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
          description:
            "Media item id (media_…). From svc_add_media_to_board or svc_list_workspace_items with type media."
        })
      },
      output: { media: MediaCard },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { media: yield* workspaceSearch.readMediaCard(id, input.mediaId) }
        })
    }),
    defineTool({
      name: "svc_list_chats",
      title: "List chats",
      group: "Workspace",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "List the workspace's chats, most recently active first, Custom AI chats included (customAIId set); returns id, title, assistant and timestamps. Free. Paged with limit and cursor.",
      input: {
        customAIId: Schema.optional(
          Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
            description: "Only chats with this Custom AI (cai_…); leave out for every chat. Ids: svc_list_custom_ai."
          })
        ),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        chats: Schema.Array(Chat).annotations({ description: "The chats, most recently active first." }),
        nextCursor: NextCursor
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const page = yield* workspaceSearch.listChats(id, input)
          return { chats: page.rows, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }
        })
    })
  ]
})
