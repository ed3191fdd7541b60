import { Board, type BoardPage, type Boards, ItemConnection, PlacedItem } from "@svc/core/boards"
import { allows } from "@svc/core/auth"
import { type Tool, toolGroups } from "@svc/core/tools"
import DataLoader from "dataloader"
import { Schema } from "effect"
import type { GraphqlContext } from "./context.js"
import { failureError } from "./errors.js"

/** A board's first page as the GraphQL types carry it: the encoded form `svc_read_board` answers. */
export interface EncodedBoardPage {
  readonly board: typeof Board.Encoded
  readonly items: ReadonlyArray<typeof PlacedItem.Encoded>
  readonly connections: ReadonlyArray<typeof ItemConnection.Encoded>
  readonly nextCursor: string | undefined
}

const encodeBoard = Schema.encodeSync(Board)
const encodePlaced = Schema.encodeSync(PlacedItem)
const encodeConnection = Schema.encodeSync(ItemConnection)

const encodePage = (page: BoardPage, cursorOf: (key: NonNullable<BoardPage["next"]>) => string): EncodedBoardPage => ({
  board: encodeBoard(page.board),
  items: page.items.map((item) => encodePlaced(item)),
  connections: page.connections.map((connection) => encodeConnection(connection)),
  nextCursor: page.next === undefined ? undefined : cursorOf(page.next)
})

/**
 * The first page of boards of one workspace, loaded together: every board a request asks for with the same page
 * size is read in one batch (two statements, `Boards.readMany`), however many boards the query nests. Made once per
 * request, workspace and page size (`context.memo`).
 *
 * Who may read: the board ids reach here only from a field under `workspace`, whose workspace the tool server has
 * resolved for this caller through a read tool of the Workspace group (reach, plan); the access part is checked
 * here with the same rule the tool server applies to `svc_read_board`, once per batch.
 */
export const boardPages = (
  context: GraphqlContext,
  boards: Boards,
  readBoard: Tool,
  cursorOf: (key: NonNullable<BoardPage["next"]>) => string,
  workspaceId: string,
  limit: number
): DataLoader<string, EncodedBoardPage | undefined> =>
  context.memo(
    `workspace-board-pages:${workspaceId}:${limit}`,
    () =>
      new DataLoader<string, EncodedBoardPage | undefined>(
        async (boardIds) => {
          const principal = await context.toolsCaller()
          // The tool server's `canUse` for a read tool (core/tools/registry.ts), which core does not export.
          if (!allows(principal.access, toolGroups[readBoard.group].part, "read")) {
            throw failureError({ status: "forbidden", message: "this credential has no access to workspace tools" })
          }
          const pages = await context.run(boards.readMany(workspaceId, boardIds, limit))
          return boardIds.map((id) => {
            const page = pages.get(id)
            return page === undefined ? undefined : encodePage(page, cursorOf)
          })
        },
        // One statement takes every board of a page of boards (at most 100).
        { maxBatchSize: 100 }
      )
  )
