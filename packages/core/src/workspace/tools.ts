import { Effect, Schema } from "effect"
import { Notes } from "../boards/notes.js"
import { creditsOf, refillsOn } from "../credits/costs.js"
import { Credits } from "../credits/service.js"
import { Cursor, encodeCursor, Limit } from "../shared/paging.js"
import { dateFilter, Timestamp } from "../shared/time.js"
import { defineTool } from "../tools/tool.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { ItemSummary, ItemType, Note, TITLE_MAX_CHARACTERS } from "../items/schema.js"
import { Workspaces } from "./service.js"

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

const CreditsRow = Schema.Struct({
  balance: Schema.Number.annotations({
    description: "AI credits that can be spent now, in tenths (e.g. 12.5): monthly allowance left plus extra credits."
  }),
  monthlyAllowance: Schema.Int.annotations({ description: "Credits the plan grants each month (UTC)." }),
  refillsOn: Schema.String.annotations({ description: "Day (YYYY-MM-DD, UTC) the monthly allowance is reset." })
}).annotations({ description: "The account's AI credits." })

const timeInput = (what: string) => dateFilter(`${what}: ISO 8601 date or time (2026-11-21, 2026-11-21T09:30:00Z).`)

/** The Workspace group's tools that exist so far. */
export const workspaceTools = Effect.gen(function* () {
  const workspaces = yield* Workspaces
  const notes = yield* Notes
  const credits = yield* Credits
  return [
    defineTool({
      name: "svc_list_workspaces",
      title: "List workspaces",
      group: "Workspace",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "List the workspaces this credential can reach, newest first, each with its id, name, whether it is the default, and its store; also the account's AI credit balance. Free. Pass an id as workspaceId to other tools.",
      input: { limit: Schema.optional(Limit), cursor: Schema.optional(Cursor) },
      output: {
        workspaces: Schema.Array(WorkspaceRow).annotations({ description: "The workspaces, newest first." }),
        nextCursor: NextCursor,
        credits: CreditsRow
      },
      handler: (input, { principal }) =>
        Effect.zipWith(
          workspaces.listWorkspaces(principal, input),
          credits.balance(principal.accountId),
          (page, balance) => ({
            workspaces: page.rows.map(({ workspace, store }) => ({
              id: workspace.id,
              name: workspace.name,
              isDefault: workspace.id === principal.workspaceId,
              store: store ? { handle: store.handle, name: store.name } : null,
              createdAt: workspace.createdAt
            })),
            ...(page.next ? { nextCursor: encodeCursor(page.next) } : {}),
            credits: {
              balance: creditsOf(balance.balanceTenths),
              monthlyAllowance: balance.monthlyAllowanceTenths / 10,
              refillsOn: refillsOn(balance.period)
            }
          })
        )
    }),
    defineTool({
      name: "svc_list_workspace_items",
      title: "List workspace items",
      group: "Workspace",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "List the workspace's items (notes, links, boards, tables, media, posts, ads), newest first, by type, tag, board or creation time: id, type, title, url, timestamps. inTrash lists the trash (restore with svc_trash_item). Free. A note's body: svc_get_note_markdown.",
      input: {
        type: Schema.optional(ItemType),
        tag: Schema.optional(
          Schema.String.pipe(Schema.minLength(1), Schema.maxLength(LIBRARY_LIMITS.tagCharacters)).annotations({
            description: "Only items with this tag (name, case ignored)."
          })
        ),
        boardId: Schema.optional(
          Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
            description: "Only items placed on this board (board_…)."
          })
        ),
        createdAfter: Schema.optional(timeInput("Only items created at or after this time")),
        createdBefore: Schema.optional(timeInput("Only items created before this time")),
        inTrash: Schema.optional(
          Schema.Boolean.annotations({
            description: `true to list the trash instead (items trashed in the last ${LIBRARY_LIMITS.trashDays} days). Default false.`
          })
        ),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        items: Schema.Array(ItemSummary).annotations({ description: "The items, newest first." }),
        nextCursor: NextCursor
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const page = yield* workspaces.listItems(id, input)
          return { items: page.rows, ...(page.next ? { nextCursor: encodeCursor(page.next) } : {}) }
        })
    }),
    defineTool({
      name: "svc_find_workspace_items",
      title: "Find workspace items",
      group: "Workspace",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Find items whose fields equal all the ones given (at least one): exact title or tag (case ignored), exact url, type. Newest first, trash left out. Free. For words anywhere in an item, use svc_search_workspace_items.",
      input: {
        title: Schema.optional(
          Schema.String.pipe(Schema.minLength(1), Schema.maxLength(TITLE_MAX_CHARACTERS)).annotations({
            description: "The whole title, case ignored (not a part of it)."
          })
        ),
        url: Schema.optional(
          Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048)).annotations({
            description: "The exact web address, as saved."
          })
        ),
        type: Schema.optional(ItemType),
        tag: Schema.optional(
          Schema.String.pipe(Schema.minLength(1), Schema.maxLength(LIBRARY_LIMITS.tagCharacters)).annotations({
            description: "A tag name the items carry, case ignored."
          })
        ),
        limit: Schema.optional(Limit),
        cursor: Schema.optional(Cursor)
      },
      output: {
        items: Schema.Array(ItemSummary).annotations({ description: "The matching items, newest first." }),
        nextCursor: NextCursor
      },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          const page = yield* workspaces.findItems(id, input)
          return { items: page.rows, ...(page.next ? { nextCursor: encodeCursor(page.next) } : {}) }
        })
    }),
    defineTool({
      name: "svc_get_note_markdown",
      title: "Get note Markdown",
      group: "Workspace",
      write: false,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Read one note: its title and full Markdown body, length and timestamps. Free. Change it with svc_append_to_note.",
      input: {
        noteId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
          description: "Note id (note_…). From svc_create_note or svc_list_workspace_items."
        })
      },
      output: { note: Note },
      handler: (input, { workspace }) =>
        Effect.gen(function* () {
          const { id } = yield* workspace
          return { note: yield* notes.get(id, input.noteId) }
        })
    })
  ]
})
