import { Effect, Schema } from "effect"
import { Notes } from "../boards/notes.js"
import { Cursor, encodeCursor, Limit } from "../shared/paging.js"
import { Timestamp } from "../shared/time.js"
import { defineTool } from "../tools/tool.js"
import { ItemSummary, ItemType, Note } from "./schema.js"
import { Library } from "./service.js"

const NextCursor = Schema.optional(
  Schema.String.annotations({ description: "Pass as cursor to read the next page; absent on the last page." })
)

const WorkspaceRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Workspace id (ws_…); pass it as workspaceId to any tool." }),
  name: Schema.String.annotations({ description: "Workspace name." }),
  isDefault: Schema.Boolean.annotations({
    description: "True for the workspace tools use when workspaceId is left out."
  }),
  store: Schema.NullOr(
    Schema.Struct({
      handle: Schema.String.annotations({ description: "Store handle." }),
      name: Schema.String.annotations({ description: "Store name." })
    })
  ).annotations({ description: "The workspace's store, or null." }),
  createdAt: Timestamp
})

/** The Workspace group's tools that exist so far. */
export const workspaceTools = Effect.gen(function* () {
  const library = yield* Library
  const notes = yield* Notes
  return [
    defineTool({
      name: "svc_list_workspaces",
      description:
        "List the workspaces this credential can reach, newest first, each with its id, name, whether it is the default, and its store. Free. Pass an id as workspaceId to other tools.",
      input: { limit: Schema.optional(Limit), cursor: Schema.optional(Cursor) },
      output: {
        workspaces: Schema.Array(WorkspaceRow).annotations({ description: "The workspaces, newest first." }),
        nextCursor: NextCursor
      },
      hints: { destructive: false, idempotent: true, openWorld: false },
      handler: (input, { principal }) =>
        Effect.map(library.listWorkspaces(principal, input), (page) => ({
          workspaces: page.rows.map(({ workspace, store }) => ({
            id: workspace.id,
            name: workspace.name,
            isDefault: workspace.id === principal.workspaceId,
            store: store ? { handle: store.handle, name: store.name } : null,
            createdAt: workspace.createdAt
          })),
          ...(page.next ? { nextCursor: encodeCursor(page.next) } : {})
        }))
    }),
    defineTool({
      name: "svc_list_workspace_items",
      description:
        "List the items of a workspace (notes, links, boards, tables, media, posts, ads), newest first, optionally of one type. Returns id, type, title, url and timestamps; trashed items are left out. Free. Read a note's body with svc_get_note_markdown.",
      input: {
        type: Schema.optional(ItemType),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        items: Schema.Array(ItemSummary).annotations({ description: "The items, newest first." }),
        nextCursor: NextCursor
      },
      hints: { destructive: false, idempotent: true, openWorld: false },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const page = yield* library.listItems(id, input)
          return { items: page.rows, ...(page.next ? { nextCursor: encodeCursor(page.next) } : {}) }
        })
    }),
    defineTool({
      name: "svc_get_note_markdown",
      description:
        "Read one note: its title and full Markdown body, length and timestamps. Free. Change it with svc_append_to_note.",
      input: {
        noteId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
          description: "Note id (note_…) from svc_create_note or svc_list_workspace_items."
        })
      },
      output: { note: Note },
      hints: { destructive: false, idempotent: true, openWorld: false },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { note: yield* notes.get(id, input.noteId) }
        })
    })
  ]
})
