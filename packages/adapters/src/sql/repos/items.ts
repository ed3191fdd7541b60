import { SqlClient } from "@effect/sql"
import { ItemSummary, ItemsRepo, type ItemType, Note, pageOf } from "@svc/core"
import { Effect, Layer, Option } from "effect"

interface ItemRow {
  readonly id: string
  readonly type: ItemType
  readonly title: string
  readonly url: string | null
  readonly created_at: Date
  readonly updated_at: Date
}

interface NoteRow extends ItemRow {
  readonly body: string
}

const toNote = (row: NoteRow) =>
  new Note({
    id: row.id,
    title: row.title,
    markdown: row.body,
    characters: row.body.length,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  })

const toSummary = (row: ItemRow) =>
  new ItemSummary({
    id: row.id,
    type: row.type,
    title: row.title,
    url: row.url,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  })

/** `ItemsRepo` over SQL. */
export const ItemsRepoSql = Layer.effect(
  ItemsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return {
      insertNote: (workspaceId, note) =>
        sql`INSERT INTO items (id, workspace_id, type, title, body, created_at, updated_at)
            VALUES (${note.id}, ${workspaceId}, 'note', ${note.title}, ${note.markdown}, ${note.createdAt}, ${note.updatedAt})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      findNote: (workspaceId, noteId) =>
        sql<NoteRow>`SELECT id, type, title, url, body, created_at, updated_at FROM items
                     WHERE id = ${noteId} AND workspace_id = ${workspaceId} AND type = 'note' AND trashed_at IS NULL`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toNote)),
          Effect.orDie,
          Effect.withSpan("ItemsRepo.findNote")
        ),
      appendToNote: (workspaceId, noteId, text, separator, maxCharacters, at) =>
        Effect.gen(function* () {
          // One UPDATE computes the new body from the stored one, so concurrent appends never lose each other.
          const updated = yield* sql<NoteRow>`
            UPDATE items SET
              body = CASE WHEN body = '' THEN ${text} ELSE body || ${separator} || ${text} END,
              updated_at = ${at}
            WHERE id = ${noteId} AND workspace_id = ${workspaceId} AND type = 'note' AND trashed_at IS NULL
              AND char_length(body) + ${separator.length + text.length} <= ${maxCharacters}
            RETURNING id, type, title, url, body, created_at, updated_at`
          const row = updated[0]
          if (row) return Option.some<Note | "too-long">(toNote(row))
          const exists = yield* sql`SELECT 1 FROM items WHERE id = ${noteId} AND workspace_id = ${workspaceId}
                                    AND type = 'note' AND trashed_at IS NULL`
          return exists.length === 0 ? Option.none() : Option.some<Note | "too-long">("too-long")
        }).pipe(Effect.orDie),
      list: (workspaceId, filter, page) => {
        const type = filter.type ? sql`AND type = ${filter.type}` : sql``
        const after = page.after ? sql`AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<ItemRow>`SELECT id, type, title, url, created_at, updated_at FROM items
                            WHERE workspace_id = ${workspaceId} AND trashed_at IS NULL ${type} ${after}
                            ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toSummary), page.limit)),
          Effect.orDie
        )
      }
    }
  })
)
