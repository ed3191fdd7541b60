import { Store, Workspace, WorkspacesRepo } from "@svc/core/accounts"
import { pageOf, trusted } from "@svc/core/shared"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface WorkspaceRow {
  readonly id: string
  readonly owner_id: string
  readonly name: string
  readonly is_default: boolean
  readonly created_at: Date
}

interface StoreRow {
  readonly id: string
  readonly workspace_id: string
  readonly handle: string
  readonly name: string
}

// Rows come from our own database, whose columns already hold what the schemas require: classes are built with
// `trusted` (no second validation).
const toWorkspace = (row: WorkspaceRow) =>
  new Workspace(
    {
      id: row.id,
      ownerId: row.owner_id,
      name: row.name,
      isDefault: row.is_default,
      createdAt: row.created_at
    },
    trusted
  )

const toStore = (row: StoreRow) =>
  new Store({ id: row.id, workspaceId: row.workspace_id, handle: row.handle, name: row.name }, trusted)

/** `WorkspacesRepo` over SQL. */
export const WorkspacesRepoSql = Layer.effect(
  WorkspacesRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    const one = <Row, A>(rows: ReadonlyArray<Row>, f: (row: Row) => A) => Option.map(Option.fromNullable(rows[0]), f)
    return {
      insert: (w) =>
        lean`INSERT INTO workspaces (id, owner_id, name, is_default, created_at)
            VALUES (${w.id}, ${w.ownerId}, ${w.name}, ${w.isDefault}, ${w.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      findById: (id) =>
        lean<WorkspaceRow>`SELECT * FROM workspaces WHERE id = ${id}`.pipe(
          Effect.map((rows) => one(rows, toWorkspace)),
          Effect.orDie
        ),
      findDefault: (accountId) =>
        lean<WorkspaceRow>`SELECT * FROM workspaces WHERE owner_id = ${accountId} AND is_default`.pipe(
          Effect.map((rows) => one(rows, toWorkspace)),
          Effect.orDie
        ),
      listByOwner: (accountId, page) =>
        (page.after
          ? lean<WorkspaceRow>`SELECT * FROM workspaces WHERE owner_id = ${accountId}
              AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})
              ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`
          : lean<WorkspaceRow>`SELECT * FROM workspaces WHERE owner_id = ${accountId}
              ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`
        ).pipe(
          Effect.map((rows) => pageOf(rows.map(toWorkspace), page.limit)),
          Effect.orDie
        ),
      insertStore: (s) =>
        lean`INSERT INTO stores (id, workspace_id, handle, name) VALUES (${s.id}, ${s.workspaceId}, ${s.handle}, ${s.name})
            ON CONFLICT (handle) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      findStore: (workspaceId) =>
        lean<StoreRow>`SELECT * FROM stores WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => one(rows, toStore)),
          Effect.orDie
        ),
      renameStore: (workspaceId, name) =>
        lean`UPDATE stores SET name = ${name} WHERE workspace_id = ${workspaceId} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      findStoreByHandle: (handle) =>
        lean<StoreRow>`SELECT * FROM stores WHERE handle = ${handle}`.pipe(
          Effect.map((rows) => one(rows, toStore)),
          Effect.orDie
        )
    }
  })
)
