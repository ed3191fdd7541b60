import * as SqlClient from "@effect/sql/SqlClient"
import { ConnectionsRepo } from "@svc/core/boards"
import { pageOf } from "@svc/core/shared"
import { Effect, Layer } from "effect"
import { type ConnectionRow, toConnection } from "./boards.js"
import { LeanSql } from "../lean.js"

/** `ConnectionsRepo` over SQL. */
export const ConnectionsRepoSql = Layer.effect(
  ConnectionsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      upsert: (workspaceId, c) =>
        lean<ConnectionRow>`INSERT INTO connections (id, workspace_id, from_item_id, to_item_id, board_id, label, created_at)
                           VALUES (${c.id}, ${workspaceId}, ${c.fromItemId}, ${c.toItemId}, ${c.boardId}, ${c.label}, ${c.createdAt})
                           ON CONFLICT (from_item_id, to_item_id, coalesce(board_id, ''))
                           DO UPDATE SET label = EXCLUDED.label
                           RETURNING id, from_item_id, to_item_id, label, board_id, created_at`.pipe(
          Effect.flatMap((rows) =>
            rows[0] ? Effect.succeed(toConnection(rows[0])) : Effect.dieMessage("connection upsert returned no row")
          ),
          Effect.orDie
        ),
      listOf: (workspaceId, itemId, page) => {
        const after = page.after ? sql`AND (c.created_at, c.id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<ConnectionRow>`SELECT c.id, c.from_item_id, c.to_item_id, c.label, c.board_id, c.created_at
                                  FROM connections c
                                  JOIN items o ON o.id = CASE WHEN c.from_item_id = ${itemId} THEN c.to_item_id ELSE c.from_item_id END
                                  LEFT JOIN items b ON b.id = c.board_id
                                  WHERE c.workspace_id = ${workspaceId}
                                    AND (c.from_item_id = ${itemId} OR c.to_item_id = ${itemId})
                                    AND o.trashed_at IS NULL AND (c.board_id IS NULL OR b.trashed_at IS NULL) ${after}
                                  ORDER BY c.created_at DESC, c.id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toConnection), page.limit)),
          Effect.orDie
        )
      }
    }
  })
)
