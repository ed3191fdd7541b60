import * as SqlClient from "@effect/sql/SqlClient"
import { ItemSummary, ItemsRepo, type ItemType, Note, type StoredItem } from "@svc/core/items"
import { pageOf, trusted } from "@svc/core/shared"
import { isWebhookEventType } from "@svc/core/webhooks"
import { Effect, Layer, Option } from "effect"
import { inKeyOrder, keysParameter, makeBatchedLookup } from "../batched-lookup.js"
import { jsonObject } from "../json-column.js"
import { LeanSql } from "../lean.js"
import { withSpan } from "@svc/core/shared"

interface ItemRow {
  readonly id: string
  readonly type: ItemType
  readonly title: string
  readonly url: string | null
  readonly created_at: Date
  readonly updated_at: Date
  readonly trashed_at?: Date | null
}

interface StoredRow extends ItemRow {
  readonly note: string
  readonly data: unknown
  readonly trashed_at: Date | null
}

const toStored = (row: StoredRow): StoredItem => ({
  id: row.id,
  type: row.type,
  title: row.title,
  url: row.url,
  note: row.note,
  data: jsonObject(row.data),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  trashedAt: row.trashed_at
})

/** An item as a batched lookup takes it (see batched-lookup.ts). */
interface ItemKey extends Readonly<Record<string, string>> {
  readonly workspace_id: string
  readonly id: string
}

interface KeyPosition {
  readonly n: number
}

interface NoteRow extends ItemRow {
  readonly body: string
}

// Rows come from our own database, whose columns already hold what the schemas require: the classes are built
// `trusted`, without validating each field again (it cost more per note read than the rest of the mapping).
const toNote = (row: NoteRow) =>
  new Note(
    {
      id: row.id,
      title: row.title,
      markdown: row.body,
      characters: row.body.length,
      createdAt: row.created_at,
      updatedAt: row.updated_at
    },
    trusted
  )

const toSummary = (row: ItemRow) =>
  new ItemSummary(
    {
      id: row.id,
      type: row.type,
      title: row.title,
      url: row.url,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      ...(row.trashed_at ? { trashedAt: row.trashed_at } : {})
    },
    trusted
  )

/** `ItemsRepo` over SQL. */
export const ItemsRepoSql = Layer.effect(
  ItemsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    // The two reads of one item by id that tool calls make most: gathered per turn of the event loop.
    const findNoteRow = yield* makeBatchedLookup({
      name: "ItemsRepo.findNote batch",
      run: (keys: ReadonlyArray<ItemKey>) =>
        Effect.map(
          lean<NoteRow & KeyPosition>`
            SELECT k.n, i.id, i.type, i.title, i.url, i.body, i.created_at, i.updated_at
            FROM jsonb_to_recordset(${keysParameter(keys)}::jsonb) AS k(n int, workspace_id text, id text)
            JOIN items i ON i.id = k.id AND i.workspace_id = k.workspace_id AND i.type = 'note' AND i.trashed_at IS NULL`,
          (rows) => inKeyOrder(rows, keys.length)
        )
    })
    const findItemRow = yield* makeBatchedLookup({
      name: "ItemsRepo.findItem batch",
      run: (keys: ReadonlyArray<ItemKey>) =>
        Effect.map(
          lean<StoredRow & KeyPosition>`
            SELECT k.n, i.id, i.type, i.title, i.url, i.note, i.data, i.created_at, i.updated_at, i.trashed_at
            FROM jsonb_to_recordset(${keysParameter(keys)}::jsonb) AS k(n int, workspace_id text, id text)
            JOIN items i ON i.id = k.id AND i.workspace_id = k.workspace_id`,
          (rows) => inKeyOrder(rows, keys.length)
        )
    })
    return {
      insertNote: (workspaceId, note, created) =>
        isWebhookEventType(created.type)
          ? Effect.die(
              new Error(`insertNote logs unpublished events only; ${created.type} goes through EventLog.append`)
            )
          : // A data-modifying WITH runs whatever the outer statement reads: both rows go in, or neither.
            lean`WITH item AS (
                   INSERT INTO items (id, workspace_id, type, title, body, created_at, updated_at)
                   VALUES (${note.id}, ${workspaceId}, 'note', ${note.title}, ${note.markdown}, ${note.createdAt},
                           ${note.updatedAt}))
                 INSERT INTO events (id, workspace_id, type, created_at, data)
                 VALUES (${created.id}, ${created.workspaceId}, ${created.type}, ${created.createdAt},
                         ${JSON.stringify(created.data)}::jsonb)`.pipe(Effect.asVoid, Effect.orDie),
      findNote: (workspaceId, noteId) =>
        findNoteRow({ workspace_id: workspaceId, id: noteId }).pipe(
          Effect.map(Option.map(toNote)),
          Effect.orDie,
          withSpan("ItemsRepo.findNote", { captureStackTrace: false })
        ),
      appendToNote: (workspaceId, noteId, text, separator, maxCharacters, at) =>
        Effect.gen(function* () {
          // One UPDATE computes the new body from the stored one, so concurrent appends never lose each other.
          const updated = yield* lean<NoteRow>`
            UPDATE items SET
              body = CASE WHEN body = '' THEN ${text} ELSE body || ${separator} || ${text} END,
              updated_at = ${at}
            WHERE id = ${noteId} AND workspace_id = ${workspaceId} AND type = 'note' AND trashed_at IS NULL
              AND char_length(body) + ${separator.length + text.length} <= ${maxCharacters}
            RETURNING id, type, title, url, body, created_at, updated_at`
          const row = updated[0]
          if (row) return Option.some<Note | "too-long">(toNote(row))
          const exists = yield* lean`SELECT 1 FROM items WHERE id = ${noteId} AND workspace_id = ${workspaceId}
                                    AND type = 'note' AND trashed_at IS NULL`
          return exists.length === 0 ? Option.none() : Option.some<Note | "too-long">("too-long")
        }).pipe(Effect.orDie),
      list: (workspaceId, filter, page) => {
        const type = filter.type ? sql`AND i.type = ${filter.type}` : sql``
        const trash = filter.trashedSince
          ? sql`AND i.trashed_at >= ${filter.trashedSince}`
          : sql`AND i.trashed_at IS NULL`
        const title = filter.title === undefined ? sql`` : sql`AND lower(i.title) = lower(${filter.title})`
        const url = filter.url === undefined ? sql`` : sql`AND i.url = ${filter.url}`
        const tag =
          filter.tag === undefined
            ? sql``
            : sql`AND EXISTS (SELECT 1 FROM item_tags it JOIN tags t ON t.id = it.tag_id
                              WHERE it.item_id = i.id AND t.workspace_id = ${workspaceId}
                                AND lower(t.name) = lower(${filter.tag}))`
        const board =
          filter.boardId === undefined
            ? sql``
            : sql`AND EXISTS (SELECT 1 FROM board_items b WHERE b.board_id = ${filter.boardId} AND b.item_id = i.id)`
        const from = filter.createdAfter ? sql`AND i.created_at >= ${filter.createdAfter}` : sql``
        const until = filter.createdBefore ? sql`AND i.created_at < ${filter.createdBefore}` : sql``
        const after = page.after ? sql`AND (i.created_at, i.id) < (${page.after.createdAt}, ${page.after.id})` : sql``
        return sql<ItemRow>`SELECT i.id, i.type, i.title, i.url, i.created_at, i.updated_at, i.trashed_at FROM items i
                            WHERE i.workspace_id = ${workspaceId} ${trash} ${type} ${title} ${url} ${tag} ${board}
                              ${from} ${until} ${after}
                            ORDER BY i.created_at DESC, i.id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toSummary), page.limit)),
          Effect.orDie,
          withSpan("ItemsRepo.list", { captureStackTrace: false })
        )
      },
      insertItem: (workspaceId, item) =>
        lean`INSERT INTO items (id, workspace_id, type, title, url, data, created_at, updated_at)
            VALUES (${item.id}, ${workspaceId}, ${item.type}, ${item.title}, ${item.url},
                    ${JSON.stringify(item.data)}::jsonb, ${item.createdAt}, ${item.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      findItem: (workspaceId, itemId) =>
        findItemRow({ workspace_id: workspaceId, id: itemId }).pipe(Effect.map(Option.map(toStored)), Effect.orDie),
      lockItem: (workspaceId, itemId) =>
        lean<StoredRow>`SELECT id, type, title, url, note, data, created_at, updated_at, trashed_at FROM items
                       WHERE id = ${itemId} AND workspace_id = ${workspaceId} FOR UPDATE`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toStored)),
          Effect.orDie,
          withSpan("ItemsRepo.lockItem", { captureStackTrace: false })
        ),
      findSummaries: (workspaceId, itemIds) =>
        itemIds.length === 0
          ? Effect.succeed([])
          : sql<ItemRow>`SELECT id, type, title, url, created_at, updated_at FROM items
                         WHERE workspace_id = ${workspaceId} AND trashed_at IS NULL AND id IN ${sql.in(itemIds)}`.pipe(
              Effect.map((rows) => rows.map(toSummary)),
              Effect.orDie
            ),
      updateItem: (workspaceId, itemId, change, at) =>
        lean`UPDATE items SET
              title = coalesce(${change.title ?? null}, title),
              note = coalesce(${change.note ?? null}, note),
              data = coalesce(${change.data === undefined ? null : JSON.stringify(change.data)}::jsonb, data),
              updated_at = ${at}
            WHERE id = ${itemId} AND workspace_id = ${workspaceId}`.pipe(Effect.asVoid, Effect.orDie),
      lockNote: (workspaceId, noteId) =>
        lean<NoteRow>`SELECT id, type, title, url, body, created_at, updated_at FROM items
                     WHERE id = ${noteId} AND workspace_id = ${workspaceId} AND type = 'note' AND trashed_at IS NULL
                     FOR UPDATE`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toNote)),
          Effect.orDie
        ),
      replaceNoteBody: (workspaceId, noteId, change, at) =>
        lean<NoteRow>`UPDATE items SET body = ${change.markdown}, title = coalesce(${change.title ?? null}, title),
                       updated_at = ${at}
                     WHERE id = ${noteId} AND workspace_id = ${workspaceId} AND type = 'note'
                     RETURNING id, type, title, url, body, created_at, updated_at`.pipe(
          Effect.flatMap((rows) =>
            rows[0] ? Effect.succeed(toNote(rows[0])) : Effect.dieMessage(`note ${noteId} vanished inside its lock`)
          ),
          Effect.orDie
        ),
      setTrashed: (workspaceId, itemId, at) =>
        lean`UPDATE items SET trashed_at = ${at} WHERE id = ${itemId} AND workspace_id = ${workspaceId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    }
  })
)
