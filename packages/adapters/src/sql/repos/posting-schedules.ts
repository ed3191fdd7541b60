import { type PostingSlot, PostingSchedulesRepo } from "@svc/core/scheduling"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface ScheduleRow {
  readonly workspace_id: string
  readonly time_zone: string
  readonly slots: ReadonlyArray<PostingSlot> | string
  readonly updated_at: Date
}

/** `PostingSchedulesRepo` over SQL: one row per workspace that set its schedule. */
export const PostingSchedulesRepoSql = Layer.effect(
  PostingSchedulesRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      find: (workspaceId) =>
        lean<ScheduleRow>`SELECT * FROM posting_schedules WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              workspaceId: row.workspace_id,
              timeZone: row.time_zone,
              slots: typeof row.slots === "string" ? (JSON.parse(row.slots) as ReadonlyArray<PostingSlot>) : row.slots,
              updatedAt: row.updated_at
            }))
          ),
          Effect.orDie
        ),
      save: (s) =>
        lean`INSERT INTO posting_schedules (workspace_id, time_zone, slots, updated_at)
             VALUES (${s.workspaceId}, ${s.timeZone}, ${JSON.stringify(s.slots)}::jsonb, ${s.updatedAt ?? new Date(0)})
             ON CONFLICT (workspace_id) DO UPDATE SET time_zone = EXCLUDED.time_zone, slots = EXCLUDED.slots,
                                                      updated_at = EXCLUDED.updated_at`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    }
  })
)
