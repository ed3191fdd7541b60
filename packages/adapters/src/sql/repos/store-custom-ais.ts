import { CustomAi, type CustomAiKind, CustomAisRepo } from "@svc/core/custom-ai"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface CustomAiRow {
  readonly id: string
  readonly workspace_id: string
  readonly name: string
  readonly kind: CustomAiKind
  readonly created_at: Date
}

const toCustomAi = (row: CustomAiRow) =>
  new CustomAi({ id: row.id, workspaceId: row.workspace_id, name: row.name, kind: row.kind, createdAt: row.created_at })

/** `CustomAisRepo` over SQL (the minimal record the store sells). */
export const CustomAisRepoSql = Layer.effect(
  CustomAisRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      insert: (c) =>
        lean`INSERT INTO custom_ais (id, workspace_id, name, kind, created_at)
            VALUES (${c.id}, ${c.workspaceId}, ${c.name}, ${c.kind}, ${c.createdAt})`.pipe(Effect.asVoid, Effect.orDie),
      find: (workspaceId, id) =>
        lean<CustomAiRow>`SELECT * FROM custom_ais WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toCustomAi)),
          Effect.orDie
        ),
      list: (workspaceId) =>
        lean<CustomAiRow>`SELECT * FROM custom_ais WHERE workspace_id = ${workspaceId}
                         ORDER BY created_at DESC, id DESC`.pipe(
          Effect.map((rows) => rows.map(toCustomAi)),
          Effect.orDie
        )
    }
  })
)
