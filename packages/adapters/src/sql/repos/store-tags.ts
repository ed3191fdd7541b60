import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf } from "@svc/core/shared"
import { type StoreTag, StoreTagsRepo } from "@svc/core/store"
import { Effect, Layer } from "effect"
import { LeanSql } from "../lean.js"

interface TagRow {
  readonly id: string
  readonly name: string
}

interface ListedTagRow extends TagRow {
  readonly created_at: Date
  readonly contacts: number | string
}

/** `StoreTagsRepo` over SQL: the store's tags (one per name, in any case) and the people carrying them, by email. */
export const StoreTagsRepoSql = Layer.effect(
  StoreTagsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    const personTags = (workspaceId: string, email: string, tagIds: ReadonlyArray<string>) =>
      tagIds.map((tag_id) => ({ workspace_id: workspaceId, tag_id, email }))
    return {
      ensure: (workspaceId, tags, at) =>
        Effect.gen(function* () {
          for (const tag of tags) {
            yield* lean`INSERT INTO store_tags (id, workspace_id, name, name_key, created_at)
                       VALUES (${tag.id}, ${workspaceId}, ${tag.name}, ${tag.name.toLowerCase()}, ${at})
                       ON CONFLICT (workspace_id, name_key) DO NOTHING`
          }
          const keys = tags.map((t) => t.name.toLowerCase())
          if (keys.length === 0) return []
          const rows = yield* sql<TagRow>`SELECT id, name FROM store_tags
                                          WHERE workspace_id = ${workspaceId} AND name_key IN ${sql.in(keys)}
                                          ORDER BY name_key`
          return rows.map((row): StoreTag => ({ id: row.id, name: row.name }))
        }).pipe(Effect.orDie),
      // One statement; RETURNING names only the rows inserted, so a tag the person had is not counted again.
      addToPerson: (workspaceId, email, tagIds, at) =>
        tagIds.length === 0
          ? Effect.succeed([])
          : sql<{ readonly tag_id: string }>`INSERT INTO store_person_tags
                ${sql.insert(personTags(workspaceId, email, tagIds).map((row) => ({ ...row, created_at: at })))}
                ON CONFLICT (workspace_id, tag_id, email) DO NOTHING RETURNING tag_id`.pipe(
              Effect.map((rows) => rows.map((row) => row.tag_id)),
              Effect.orDie
            ),
      removeFromPerson: (workspaceId, email, tagIds) =>
        tagIds.length === 0
          ? Effect.succeed([])
          : sql<{ readonly tag_id: string }>`DELETE FROM store_person_tags
                WHERE workspace_id = ${workspaceId} AND email = ${email} AND tag_id IN ${sql.in(tagIds)}
                RETURNING tag_id`.pipe(
              Effect.map((rows) => rows.map((row) => row.tag_id)),
              Effect.orDie
            ),
      resolve: (workspaceId, refs) =>
        refs.length === 0
          ? Effect.succeed([])
          : sql<TagRow>`SELECT id, name FROM store_tags WHERE workspace_id = ${workspaceId}
                AND (id IN ${sql.in(refs)} OR name_key IN ${sql.in(refs.map((ref) => ref.toLowerCase()))})`.pipe(
              Effect.map((rows) => rows.map((row): StoreTag => ({ id: row.id, name: row.name }))),
              Effect.orDie
            ),
      tagsOf: (workspaceId, emails) =>
        emails.length === 0
          ? Effect.succeed(new Map())
          : sql<TagRow & { readonly email: string }>`SELECT pt.email, t.id, t.name FROM store_person_tags pt
                JOIN store_tags t ON t.id = pt.tag_id
                WHERE pt.workspace_id = ${workspaceId} AND pt.email IN ${sql.in(emails)}
                ORDER BY t.name_key`.pipe(
              Effect.map((rows) => {
                const byEmail = new Map<string, Array<StoreTag>>()
                for (const row of rows) {
                  const list = byEmail.get(row.email) ?? []
                  list.push({ id: row.id, name: row.name })
                  byEmail.set(row.email, list)
                }
                return byEmail as ReadonlyMap<string, ReadonlyArray<StoreTag>>
              }),
              Effect.orDie
            ),
      listPage: (workspaceId, range, page) => {
        const createdAfter = range.after ? sql`AND t.created_at > ${range.after}` : sql``
        const createdBefore = range.before ? sql`AND t.created_at < ${range.before}` : sql``
        const after = page.after ? sql`AND (t.created_at, t.id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        // count(*) is a bigint: PostgreSQL's driver answers it as text, PGlite as a number.
        return sql<ListedTagRow>`SELECT t.id, t.name, t.created_at,
              (SELECT count(*) FROM store_person_tags pt JOIN store_email_contacts c
                 ON c.workspace_id = pt.workspace_id AND c.email = pt.email
               WHERE pt.workspace_id = t.workspace_id AND pt.tag_id = t.id) AS contacts
            FROM store_tags t WHERE t.workspace_id = ${workspaceId} ${createdAfter} ${createdBefore} ${after}
            ORDER BY t.created_at DESC, t.id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) =>
            pageOf(
              rows.map((row) => ({
                id: row.id,
                name: row.name,
                createdAt: row.created_at,
                contacts: Number(row.contacts)
              })),
              page.limit
            )
          ),
          Effect.orDie
        )
      }
    }
  })
)
