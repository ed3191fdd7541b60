import { Board, Boards, ItemConnection, PlacedItem, Table } from "@svc/core/boards"
import { encodeCursor } from "@svc/core/shared"
import { type ToolRegistryShape, ToolServer } from "@svc/core/tools"
import { Effect } from "effect"
import {
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString
} from "graphql"
import { connectionOf, type Connections, type PageArgs, pageArgs } from "./connections.js"
import type { GraphqlContext } from "./context.js"
import { failureError } from "./errors.js"
import type { GraphqlKit, GraphqlPart } from "./parts.js"
import { elementSchema, fieldSchema } from "./schema-fields.js"
import { researchFields } from "./research.js"
import { schedulingFields } from "./scheduling.js"
import { answerOrThrow, type InWorkspace, toolConnectionField } from "./tool-fields.js"
import { boardPages, type EncodedBoardPage } from "./workspace-loaders.js"

/** The page size of the tools' lists when `first` is left out. */
const DEFAULT_FIRST = 25

/** A board under a workspace: its id, and its first page once loaded. */
interface BoardSource extends InWorkspace {
  readonly id: string
  readonly page?: EncodedBoardPage
}

/** A paged list whose order is not the keyset (rank, name, position): only the last edge carries a cursor. */
const unkeyed = () => null

/** Where a page of a board's items continues after `item`: the board's keyset (placed at, item id). */
const placedCursor = (item: unknown): string | null => {
  const placed = item as { readonly id?: unknown; readonly addedAt?: unknown }
  if (typeof placed.id !== "string" || typeof placed.addedAt !== "string") return null
  return encodeCursor({ createdAt: new Date(placed.addedAt), id: placed.id })
}

/**
 * `workspace(id)`: what a workspace holds, every list a connection on the tools' keyset paging. Each field reads
 * through the read tool the other faces call (access part, plan and workspace reach applied by the tool server),
 * except the pages of boards nested in a list of boards, which load together per request (`workspace-loaders.ts`)
 * so that a page of 50 boards with their items and connections costs the same few statements as one.
 */
export const workspacePart = (kit: GraphqlKit, connections: Connections, registry: ToolRegistryShape) =>
  Effect.gen(function* () {
    const boardsService = yield* Boards
    const tools = yield* ToolServer
    const { types } = kit
    // An embedding backend may serve some areas' tools only: a field whose tool is not served is left out.
    const tool = (name: string) => registry.find(name)?.tool
    const listItems = tool("svc_list_workspace_items")
    const readBoard = tool("svc_read_board")
    const readNote = tool("svc_get_note_markdown")
    const readTable = tool("svc_read_table")
    const listTags = tool("svc_list_tags")

    const placedItem = types.output(PlacedItem, "PlacedItem")
    // `items { x y item { … } }` and the flat `items { id title x y }` both read a board's items: the placed item's
    // own fields (derived from `PlacedItem`) and the item itself under `item`.
    const boardItem = new GraphQLNonNull(
      new GraphQLObjectType({
        name: types.reserve("BoardItem"),
        description: "An item on a board: where it sits (x, y), and the item itself.",
        fields: () => ({
          ...types.outputFields(PlacedItem, "BoardItem"),
          item: { type: placedItem, description: "The item placed.", resolve: (placed: unknown) => placed }
        })
      })
    )
    const itemConnection = types.output(ItemConnection, "ItemConnection")

    const loaderOf = (context: GraphqlContext, workspaceId: string, first: number | null | undefined) =>
      boardPages(context, boardsService, readBoard!, encodeCursor, workspaceId, first ?? DEFAULT_FIRST)

    /** The board's page of `first` items after `after`: batched for a first page, else `svc_read_board` itself. */
    const pageOf = async (source: BoardSource, args: PageArgs, context: GraphqlContext): Promise<EncodedBoardPage> => {
      if (args.after == null) {
        const loaded = await loaderOf(context, source.workspaceId, args.first).load(source.id)
        if (loaded === undefined) throw boardNotFound(source.id)
        return loaded
      }
      const answer = answerOrThrow(
        await context.callTool(readBoard!.name, {
          workspaceId: source.workspaceId,
          boardId: source.id,
          ...(args.first == null ? {} : { limit: args.first }),
          cursor: args.after
        })
      )
      return answer as unknown as EncodedBoardPage
    }

    const boardFields = types.outputFields(Board, "Board")
    const workspaceBoard: GraphQLObjectType<BoardSource, GraphqlContext> = new GraphQLObjectType({
      name: types.reserve("WorkspaceBoard"),
      description:
        "A board with its items and connections (as svc_read_board answers them); a list of boards loads them together.",
      fields: () => ({
        ...Object.fromEntries(
          Object.entries(boardFields).map(([key, field]) => [
            key,
            {
              ...field,
              resolve: async (source: BoardSource, _args: unknown, context: GraphqlContext) =>
                (source.page ?? (await pageOf(source, {}, context))).board[key as keyof EncodedBoardPage["board"]]
            }
          ])
        ),
        items: {
          type: connections.of(boardItem),
          description: "Items on the board with their x/y, most recently placed first.",
          args: pageArgs,
          resolve: async (source: BoardSource, args: PageArgs, context: GraphqlContext) => {
            const page = await pageOf(source, args, context)
            return connectionOf(page.items, page.nextCursor, { after: args.after, cursorOf: placedCursor })
          }
        },
        connections: {
          type: new GraphQLNonNull(new GraphQLList(itemConnection)),
          description:
            "Connections drawn on this board or workspace-wide between two items on it, touching an item of the same page as items(first, after).",
          args: pageArgs,
          resolve: async (source: BoardSource, args: PageArgs, context: GraphqlContext) =>
            (await pageOf(source, args, context)).connections
        }
      })
    })

    const boardNode = (workspaceId: string, id: string): BoardSource => ({ workspaceId, id })

    const tableView =
      readTable &&
      new GraphQLObjectType({
        name: types.reserve("TableView"),
        description: "A table (as svc_read_table answers it): title, columns, row count and a page of rows in order.",
        fields: {
          ...(types.outputFields(Table, "Table") as GraphQLFieldConfigMap<unknown, unknown>),
          rows: {
            type: connections.of(
              types.output(elementSchema(fieldSchema(readTable.outputSchema.ast, "rows")), "TableRow")
            ),
            description: "A page of rows in position order."
          }
        }
      })

    const search = tool("svc_search_workspace_items")
    const highlights = tool("svc_search_highlights")
    const scheduling = yield* schedulingFields(kit, connections, registry)
    const research = yield* researchFields(kit, connections, registry)
    const workspace = new GraphQLObjectType<InWorkspace, GraphqlContext>({
      name: types.reserve("Workspace"),
      description: "A workspace and what it holds, read through the same tools as the other faces.",
      fields: {
        id: { type: new GraphQLNonNull(GraphQLString), resolve: (source) => source.workspaceId },
        ...(listItems
          ? {
              items: toolConnectionField(kit, connections, listItems, {
                list: "items",
                node: "ItemSummary",
                description: "The workspace's items, newest first, narrowed like svc_list_workspace_items."
              }) as GraphQLFieldConfig<InWorkspace, GraphqlContext>
            }
          : {}),
        ...(search
          ? {
              search: toolConnectionField(kit, connections, search, {
                list: "items",
                node: "ItemHit",
                description: "Full-text search of the workspace's items, best first (svc_search_workspace_items).",
                cursorOf: unkeyed
              }) as GraphQLFieldConfig<InWorkspace, GraphqlContext>
            }
          : {}),
        ...(listItems && readBoard
          ? {
              boards: {
                type: connections.of(new GraphQLNonNull(workspaceBoard)),
                description: "The workspace's boards, newest first; their items and connections load together.",
                args: pageArgs,
                resolve: async (source: InWorkspace, { first, after }: PageArgs, context: GraphqlContext) => {
                  const answer = answerOrThrow(
                    await context.callTool(listItems.name, {
                      workspaceId: source.workspaceId,
                      type: "board",
                      ...(first == null ? {} : { limit: first }),
                      ...(after == null ? {} : { cursor: after })
                    })
                  )
                  const rows = answer.items as ReadonlyArray<{ readonly id: string; readonly createdAt: string }>
                  return connectionOf(
                    rows.map((row) => ({ ...boardNode(source.workspaceId, row.id), createdAt: row.createdAt })),
                    answer.nextCursor as string | undefined,
                    { after }
                  )
                }
              }
            }
          : {}),
        ...(readBoard
          ? {
              board: {
                type: new GraphQLNonNull(workspaceBoard),
                description: "One board (svc_read_board): not-found for one in the trash or of another workspace.",
                args: { id: { type: new GraphQLNonNull(GraphQLString), description: "Board id (board_…)." } },
                // Loaded here, so that a missing board fails this field (NOT_FOUND) and its fields share the page.
                resolve: async (source: InWorkspace, { id }: { readonly id: string }, context: GraphqlContext) => {
                  const node = boardNode(source.workspaceId, id)
                  return { ...node, page: await pageOf(node, {}, context) }
                }
              }
            }
          : {}),
        ...(readNote
          ? {
              note: {
                type: types.output(fieldSchema(readNote.outputSchema.ast, "note"), "Note"),
                description: "One note with its Markdown body (svc_get_note_markdown).",
                args: { id: { type: new GraphQLNonNull(GraphQLString), description: "Note id (note_…)." } },
                resolve: async (source: InWorkspace, { id }: { readonly id: string }, context: GraphqlContext) =>
                  answerOrThrow(await context.callTool(readNote.name, { workspaceId: source.workspaceId, noteId: id }))
                    .note
              }
            }
          : {}),
        ...(readTable && tableView
          ? {
              table: {
                type: new GraphQLNonNull(tableView),
                description: "One table with a page of its rows (svc_read_table).",
                args: {
                  id: { type: new GraphQLNonNull(GraphQLString), description: "Table id (table_…)." },
                  ...pageArgs
                },
                resolve: async (
                  source: InWorkspace,
                  { id, first, after }: { readonly id: string } & PageArgs,
                  context: GraphqlContext
                ) => {
                  const answer = answerOrThrow(
                    await context.callTool(readTable.name, {
                      workspaceId: source.workspaceId,
                      tableId: id,
                      ...(first == null ? {} : { limit: first }),
                      ...(after == null ? {} : { cursor: after })
                    })
                  )
                  return {
                    ...(answer.table as Record<string, unknown>),
                    rows: connectionOf(answer.rows as ReadonlyArray<unknown>, answer.nextCursor as string | undefined, {
                      after,
                      cursorOf: unkeyed
                    })
                  }
                }
              }
            }
          : {}),
        ...(listTags
          ? {
              tags: toolConnectionField(kit, connections, listTags, {
                list: "tags",
                node: "Tag",
                description: "The workspace's tags by name, each with its item count (svc_list_tags).",
                cursorOf: unkeyed
              }) as GraphQLFieldConfig<InWorkspace, GraphqlContext>
            }
          : {}),
        ...(highlights
          ? {
              highlights: toolConnectionField(kit, connections, highlights, {
                list: "highlights",
                node: "Highlight",
                description: "Saved highlights, best first for a query, else newest first (svc_search_highlights).",
                cursorOf: unkeyed
              }) as GraphQLFieldConfig<InWorkspace, GraphqlContext>
            }
          : {}),
        ...scheduling,
        ...research
      }
    })

    const part: GraphqlPart = {
      query: {
        workspace: {
          type: new GraphQLNonNull(workspace),
          description:
            "A workspace this credential reaches: the credential's default one when id is left out (not-found for another account's).",
          args: { id: { type: GraphQLString, description: "Workspace id (ws_…); default: the credential's." } },
          resolve: async (_source, { id }: { readonly id?: string | null }, context) => {
            const principal = await context.toolsCaller()
            // The tool server's own rule: the default workspace, or one this credential reaches (else not-found).
            const found = await context.run(tools.workspaceOf(principal, id ?? undefined))
            return { workspaceId: found.id }
          }
        }
      }
    }
    return part
  })

const boardNotFound = (boardId: string) =>
  failureError({
    status: "not-found",
    message: `no board ${boardId} in this workspace (or it is in the trash); workspace { boards } lists them`
  })
