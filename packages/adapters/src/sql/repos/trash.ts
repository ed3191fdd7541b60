import { TrashRepo } from "@svc/core/boards"
import { Effect, Layer } from "effect"
import { LeanSql } from "../lean.js"
import { withSpan } from "@svc/core/shared"

/** `TrashRepo` over SQL: deleting an item cascades to its placements, connections, tags and rows. */
export const TrashRepoSql = Layer.effect(
  TrashRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      purgeBefore: (cutoff, limit) =>
        // SKIP LOCKED: two servers purging at once take different rows instead of waiting on each other.
        lean<{ readonly id: string; readonly workspace_id: string; readonly type: string; readonly title: string }>`
          DELETE FROM items WHERE id IN (
            SELECT id FROM items WHERE trashed_at IS NOT NULL AND trashed_at <= ${cutoff}
            ORDER BY trashed_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
          ) RETURNING id, workspace_id, type, title`.pipe(
          Effect.map((rows) =>
            rows.map((row) => ({ id: row.id, workspaceId: row.workspace_id, type: row.type, title: row.title }))
          ),
          Effect.orDie,
          withSpan("TrashRepo.purgeBefore")
        )
    }
  })
)
