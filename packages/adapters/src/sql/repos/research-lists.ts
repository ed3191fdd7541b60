import {
  type ResearchList,
  type ResearchListKind,
  type ResearchListMember,
  ResearchListsRepo,
  type ResearchPlatform
} from "@svc/core/research"
import { pageOf, withSpan } from "@svc/core/shared"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface ListRow {
  readonly id: string
  readonly workspace_id: string
  readonly kind: ResearchListKind
  readonly name: string
  readonly member_count: number
  readonly created_at: Date
  readonly updated_at: Date
}

interface MemberRow {
  readonly list_id: string
  readonly platform: ResearchPlatform | null
  readonly key: string
  readonly handle: string
  readonly name: string
  readonly url: string | null
  readonly added_at: Date
}

const toList = (row: ListRow): ResearchList => ({
  id: row.id,
  workspaceId: row.workspace_id,
  kind: row.kind,
  name: row.name,
  memberCount: row.member_count,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

const toMember = (row: MemberRow): ResearchListMember => ({
  listId: row.list_id,
  platform: row.platform,
  key: row.key,
  handle: row.handle,
  name: row.name,
  url: row.url,
  addedAt: row.added_at
})

const firstList = (rows: ReadonlyArray<ListRow>) => Option.map(Option.fromNullable(rows[0]), toList)

/** A member as the JSON the add statement reads (its time as ISO 8601). */
const memberJson = (m: ResearchListMember) => ({
  platform: m.platform,
  key: m.key,
  handle: m.handle,
  name: m.name,
  url: m.url,
  addedAt: m.addedAt.toISOString()
})

/** The key two names share when they differ only in case: computed here, so both engines agree on it. */
const nameKey = (name: string) => name.toLowerCase()

/**
 * `ResearchListsRepo` over SQL: `research_lists` and their `research_list_members`. A list's member count is counted
 * from its members when read (over the members' identity index, lists being capped), so no statement can leave it
 * wrong. Members keep the order they were added in `position`: the list's highest plus one, which `lock` (the list's
 * row, held by the caller's transaction) makes safe from a concurrent add.
 */
export const ResearchListsRepoLive = Layer.effect(
  ResearchListsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql

    return {
      find: (workspaceId, id) =>
        lean<ListRow>`
          SELECT l.*, (SELECT count(*)::int FROM research_list_members m WHERE m.list_id = l.id) AS member_count
          FROM research_lists l WHERE l.workspace_id = ${workspaceId} AND l.id = ${id}`.pipe(
          Effect.map(firstList),
          Effect.orDie,
          withSpan("ResearchListsRepo.find", { captureStackTrace: false })
        ),
      findByName: (workspaceId, kind, name) =>
        lean<ListRow>`
          SELECT l.*, (SELECT count(*)::int FROM research_list_members m WHERE m.list_id = l.id) AS member_count
          FROM research_lists l
          WHERE l.workspace_id = ${workspaceId} AND l.kind = ${kind} AND l.name_key = ${nameKey(name)}`.pipe(
          Effect.map(firstList),
          Effect.orDie,
          withSpan("ResearchListsRepo.findByName", { captureStackTrace: false })
        ),
      insert: (list) =>
        lean`INSERT INTO research_lists (id, workspace_id, kind, name, name_key, created_at, updated_at)
             VALUES (${list.id}, ${list.workspaceId}, ${list.kind}, ${list.name}, ${nameKey(list.name)},
                     ${list.createdAt}, ${list.updatedAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("ResearchListsRepo.insert", { captureStackTrace: false })
        ),
      listPage: (workspaceId, kind, page) =>
        lean<ListRow>`
          SELECT l.*, (SELECT count(*)::int FROM research_list_members m WHERE m.list_id = l.id) AS member_count
          FROM research_lists l
          WHERE l.workspace_id = ${workspaceId}
            AND (${kind ?? null}::text IS NULL OR l.kind = ${kind ?? null}::text)
            AND (${page.after === undefined} OR (l.created_at, l.id) < (${page.after?.createdAt ?? null}::timestamptz, ${page.after?.id ?? null}::text))
          ORDER BY l.created_at DESC, l.id DESC
          LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toList), page.limit)),
          Effect.orDie,
          withSpan("ResearchListsRepo.listPage", { captureStackTrace: false })
        ),
      countLists: (workspaceId) =>
        lean<{ readonly n: number }>`SELECT count(*)::int AS n FROM research_lists
                                     WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie,
          withSpan("ResearchListsRepo.countLists", { captureStackTrace: false })
        ),
      lock: (workspaceId, id) =>
        lean<ListRow>`
          SELECT l.*, (SELECT count(*)::int FROM research_list_members m WHERE m.list_id = l.id) AS member_count
          FROM research_lists l WHERE l.workspace_id = ${workspaceId} AND l.id = ${id}
          FOR UPDATE OF l`.pipe(
          Effect.map(firstList),
          Effect.orDie,
          withSpan("ResearchListsRepo.lock", { captureStackTrace: false })
        ),
      // One statement for every member: each row is numbered in the order given after the list's highest position;
      // a member already on the list (or twice in the batch) is skipped by the identity index, and the list's
      // `updated_at` moves only when a member was added (likewise for a removal).
      addMembers: (listId, members, at) =>
        members.length === 0
          ? Effect.succeed(0)
          : lean<{ readonly n: number }>`
              WITH added AS (
                INSERT INTO research_list_members (list_id, platform, key, handle, name, url, added_at, position)
                SELECT ${listId}, e.value ->> 'platform', e.value ->> 'key', e.value ->> 'handle', e.value ->> 'name',
                       e.value ->> 'url', (e.value ->> 'addedAt')::timestamptz, top.position + e.ordinal
                FROM jsonb_array_elements(${JSON.stringify(members.map(memberJson))}::jsonb)
                       WITH ORDINALITY AS e (value, ordinal),
                     (SELECT COALESCE(max(position), 0) AS position FROM research_list_members
                      WHERE list_id = ${listId}) AS top
                ORDER BY e.ordinal
                ON CONFLICT (list_id, (COALESCE(platform, '')), key) DO NOTHING
                RETURNING 1
              ), touched AS (
                UPDATE research_lists SET updated_at = ${at} WHERE id = ${listId} AND EXISTS (SELECT 1 FROM added)
              )
              SELECT count(*)::int AS n FROM added`.pipe(
              Effect.map((rows) => rows[0]?.n ?? 0),
              Effect.orDie,
              withSpan("ResearchListsRepo.addMembers", { captureStackTrace: false })
            ),
      removeMembers: (listId, keys, at) =>
        keys.length === 0
          ? Effect.succeed(0)
          : lean<{ readonly n: number }>`
              WITH removed AS (
                DELETE FROM research_list_members m
                USING jsonb_array_elements(${JSON.stringify(keys.map((k) => ({ platform: k.platform, key: k.key })))}::jsonb) AS e (value)
                WHERE m.list_id = ${listId}
                  AND COALESCE(m.platform, '') = COALESCE(e.value ->> 'platform', '')
                  AND m.key = e.value ->> 'key'
                RETURNING 1
              ), touched AS (
                UPDATE research_lists SET updated_at = ${at} WHERE id = ${listId} AND EXISTS (SELECT 1 FROM removed)
              )
              SELECT count(*)::int AS n FROM removed`.pipe(
              Effect.map((rows) => rows[0]?.n ?? 0),
              Effect.orDie,
              withSpan("ResearchListsRepo.removeMembers", { captureStackTrace: false })
            ),
      members: (listId) =>
        lean<MemberRow>`SELECT list_id, platform, key, handle, name, url, added_at FROM research_list_members
                        WHERE list_id = ${listId} ORDER BY position, added_at, key`.pipe(
          Effect.map((rows) => rows.map(toMember)),
          Effect.orDie,
          withSpan("ResearchListsRepo.members", { captureStackTrace: false })
        )
    }
  })
)
