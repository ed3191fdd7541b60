import * as SqlClient from "@effect/sql/SqlClient"
import { CustomAi, type CustomAiKind, CustomAisRepo } from "@svc/core/custom-ai"
import { pageOf } from "@svc/core/shared"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface CustomAiRow {
  readonly id: string
  readonly workspace_id: string
  readonly name: string
  readonly kind: CustomAiKind
  readonly description: string
  readonly instructions: string
  readonly is_default: boolean
  readonly created_at: Date
  readonly updated_at: Date
}

const toCustomAi = (row: CustomAiRow) =>
  new CustomAi({
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    kind: row.kind,
    description: row.description,
    instructions: row.instructions,
    isDefault: row.is_default,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  })

const first = (rows: ReadonlyArray<CustomAiRow>) => Option.map(Option.fromNullable(rows[0]), toCustomAi)

/** `CustomAisRepo` over SQL. At most one default per workspace (a partial unique index keeps it so). */
export const CustomAisRepoSql = Layer.effect(
  CustomAisRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql

    // The one default moves in the same transaction as the write that takes it, so the unique index never sees two.
    const dropDefault = (workspaceId: string, keep: string) =>
      lean`UPDATE custom_ais SET is_default = false
           WHERE workspace_id = ${workspaceId} AND is_default AND id <> ${keep}`

    return {
      insert: (c) =>
        sql
          .withTransaction(
            Effect.zipRight(
              c.isDefault ? dropDefault(c.workspaceId, c.id) : Effect.void,
              lean`INSERT INTO custom_ais (id, workspace_id, name, kind, description, instructions, is_default,
                                           created_at, updated_at)
                   VALUES (${c.id}, ${c.workspaceId}, ${c.name}, ${c.kind}, ${c.description}, ${c.instructions},
                           ${c.isDefault}, ${c.createdAt}, ${c.updatedAt})`
            )
          )
          .pipe(Effect.asVoid, Effect.orDie),
      find: (workspaceId, id) =>
        lean<CustomAiRow>`SELECT * FROM custom_ais WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      findDefault: (workspaceId) =>
        lean<CustomAiRow>`SELECT * FROM custom_ais WHERE workspace_id = ${workspaceId} AND is_default`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      list: (workspaceId) =>
        lean<CustomAiRow>`SELECT * FROM custom_ais WHERE workspace_id = ${workspaceId}
                         ORDER BY created_at DESC, id DESC`.pipe(
          Effect.map((rows) => rows.map(toCustomAi)),
          Effect.orDie
        ),
      listPage: (workspaceId, page) =>
        lean<CustomAiRow>`SELECT * FROM custom_ais
                          WHERE workspace_id = ${workspaceId}
                            AND (${page.after === undefined} OR (created_at, id) < (${page.after?.createdAt ?? null}::timestamptz, ${page.after?.id ?? null}::text))
                          ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toCustomAi), page.limit)),
          Effect.orDie
        ),
      count: (workspaceId) =>
        lean<{
          readonly n: number
        }>`SELECT count(*)::int AS n FROM custom_ais WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie
        ),
      update: (workspaceId, id, changes) =>
        sql
          .withTransaction(
            Effect.zipRight(
              changes.isDefault === true ? dropDefault(workspaceId, id) : Effect.void,
              lean<CustomAiRow>`UPDATE custom_ais SET
                  name = COALESCE(${changes.name ?? null}::text, name),
                  kind = COALESCE(${changes.kind ?? null}::text, kind),
                  description = COALESCE(${changes.description ?? null}::text, description),
                  instructions = COALESCE(${changes.instructions ?? null}::text, instructions),
                  is_default = COALESCE(${changes.isDefault ?? null}::boolean, is_default),
                  updated_at = ${changes.updatedAt}
                WHERE workspace_id = ${workspaceId} AND id = ${id}
                RETURNING *`
            )
          )
          .pipe(Effect.map(first), Effect.orDie),
      remove: (workspaceId, id) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const found = yield* lean<{ readonly is_default: boolean; readonly sold: boolean }>`
                SELECT is_default,
                       EXISTS (SELECT 1 FROM store_products p WHERE p.custom_ai_id = c.id) AS sold
                FROM custom_ais c WHERE workspace_id = ${workspaceId} AND id = ${id} FOR UPDATE`
              const row = found[0]
              if (row === undefined) return "not_found" as const
              if (row.sold) return "sold" as const
              yield* lean`DELETE FROM custom_ais WHERE workspace_id = ${workspaceId} AND id = ${id}`
              if (row.is_default) {
                yield* lean`UPDATE custom_ais SET is_default = true
                            WHERE id = (SELECT id FROM custom_ais WHERE workspace_id = ${workspaceId}
                                        ORDER BY created_at DESC, id DESC LIMIT 1)`
              }
              return "removed" as const
            })
          )
          .pipe(Effect.orDie)
    }
  })
)
