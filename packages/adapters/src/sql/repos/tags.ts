import * as SqlClient from "@effect/sql/SqlClient"
import { Tag, TagsRepo } from "@svc/core/boards"
import { Effect, Layer } from "effect"
import { LeanSql } from "../lean.js"

interface TagRow {
  readonly id: string
  readonly name: string
  readonly item_count: number | string
  readonly created_at: Date
}

/** `TagsRepo` over SQL; names are unique per workspace without regard to case (a unique index on lower(name)). */
export const TagsRepoSql = Layer.effect(
  TagsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    const findByNames = (workspaceId: string, names: ReadonlyArray<string>) =>
      names.length === 0
        ? Effect.succeed<Array<{ readonly id: string; readonly name: string }>>([])
        : sql<{ readonly id: string; readonly name: string }>`SELECT id, name FROM tags
            WHERE workspace_id = ${workspaceId} AND lower(name) IN ${sql.in(names.map((n) => n.toLowerCase()))}`.pipe(
            Effect.map((rows) => [...rows]),
            Effect.orDie
          )
    return {
      ensure: (workspaceId, names, newId, at) =>
        Effect.forEach(names, (name) =>
          Effect.gen(function* () {
            const id = yield* newId()
            // ON CONFLICT on the case-blind index: a concurrent creator of the same name wins, we read its row.
            const inserted = yield* lean<{ readonly id: string; readonly name: string }>`
              INSERT INTO tags (id, workspace_id, name, created_at) VALUES (${id}, ${workspaceId}, ${name}, ${at})
              ON CONFLICT (workspace_id, lower(name)) DO NOTHING RETURNING id, name`
            if (inserted[0]) return { ...inserted[0], created: true }
            const [existing] = yield* findByNames(workspaceId, [name])
            if (!existing) return yield* Effect.dieMessage(`tag ${name} neither inserted nor found`)
            return { ...existing, created: false }
          })
        ).pipe(Effect.orDie),
      findByNames,
      attach: (itemIds, tagIds) =>
        itemIds.length === 0 || tagIds.length === 0
          ? Effect.void
          : sql`INSERT INTO item_tags ${sql.insert(itemIds.flatMap((item_id) => tagIds.map((tag_id) => ({ item_id, tag_id }))))}
                ON CONFLICT DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
      detach: (itemIds, tagIds) =>
        itemIds.length === 0 || tagIds.length === 0
          ? Effect.void
          : sql`DELETE FROM item_tags WHERE item_id IN ${sql.in(itemIds)} AND tag_id IN ${sql.in(tagIds)}`.pipe(
              Effect.asVoid,
              Effect.orDie
            ),
      namesOf: (itemIds) =>
        itemIds.length === 0
          ? Effect.succeed(new Map())
          : sql<{ readonly item_id: string; readonly name: string }>`SELECT it.item_id, t.name
              FROM item_tags it JOIN tags t ON t.id = it.tag_id
              WHERE it.item_id IN ${sql.in(itemIds)} ORDER BY lower(t.name), t.id`.pipe(
              Effect.map((rows) => {
                const out = new Map<string, Array<string>>()
                for (const row of rows) out.set(row.item_id, [...(out.get(row.item_id) ?? []), row.name])
                return out as ReadonlyMap<string, ReadonlyArray<string>>
              }),
              Effect.orDie
            ),
      list: (workspaceId, page) => {
        const after = page.after
          ? sql`AND (lower(t.name), t.id) > (lower(${page.after.name}), ${page.after.id})`
          : sql``
        return sql<TagRow>`SELECT t.id, t.name, t.created_at,
                             (SELECT count(*) FROM item_tags it JOIN items i ON i.id = it.item_id
                              WHERE it.tag_id = t.id AND i.trashed_at IS NULL) AS item_count
                           FROM tags t WHERE t.workspace_id = ${workspaceId} ${after}
                           ORDER BY lower(t.name), t.id LIMIT ${page.limit}`.pipe(
          Effect.map((rows) =>
            rows.map(
              (row) =>
                new Tag({ id: row.id, name: row.name, itemCount: Number(row.item_count), createdAt: row.created_at })
            )
          ),
          Effect.orDie
        )
      }
    }
  })
)
