import { type Platform, type SocialAccount, SocialAccountsRepo, type SocialAccountStatus } from "@svc/core/scheduling"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface AccountRow {
  readonly id: string
  readonly workspace_id: string
  readonly platform: Platform
  readonly handle: string
  readonly display_name: string | null
  readonly service_url: string
  readonly credentials_sealed: string
  readonly status: SocialAccountStatus
  readonly status_reason: string | null
  readonly created_at: Date
  readonly updated_at: Date
}

const toAccount = (row: AccountRow): SocialAccount => ({
  id: row.id,
  workspaceId: row.workspace_id,
  platform: row.platform,
  handle: row.handle,
  displayName: row.display_name,
  serviceUrl: row.service_url,
  credentialsSealed: row.credentials_sealed,
  status: row.status,
  statusReason: row.status_reason,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

/**
 * `SocialAccountsRepo` over SQL. Connecting a platform the workspace already has replaces that account in place,
 * keeping its id, so posts scheduled to it go out with the new credentials.
 */
export const SocialAccountsRepoSql = Layer.effect(
  SocialAccountsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      upsert: (a) =>
        lean<AccountRow>`
          INSERT INTO social_accounts (id, workspace_id, platform, handle, display_name, service_url,
                                       credentials_sealed, status, status_reason, created_at, updated_at)
          VALUES (${a.id}, ${a.workspaceId}, ${a.platform}, ${a.handle}, ${a.displayName}, ${a.serviceUrl},
                  ${a.credentialsSealed}, ${a.status}, ${a.statusReason}, ${a.createdAt}, ${a.updatedAt})
          ON CONFLICT (workspace_id, platform) DO UPDATE SET
            handle = EXCLUDED.handle, display_name = EXCLUDED.display_name, service_url = EXCLUDED.service_url,
            credentials_sealed = EXCLUDED.credentials_sealed, status = EXCLUDED.status,
            status_reason = EXCLUDED.status_reason, updated_at = EXCLUDED.updated_at
          RETURNING *`.pipe(
          Effect.map((rows) => toAccount(rows[0] as AccountRow)),
          Effect.orDie
        ),
      list: (workspaceId) =>
        lean<AccountRow>`SELECT * FROM social_accounts WHERE workspace_id = ${workspaceId}
                         ORDER BY platform`.pipe(
          Effect.map((rows) => rows.map(toAccount)),
          Effect.orDie
        ),
      find: (id) =>
        lean<AccountRow>`SELECT * FROM social_accounts WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toAccount)),
          Effect.orDie
        ),
      markNeedsReconnect: (id, reason, at) =>
        lean`UPDATE social_accounts SET status = 'needs_reconnect', status_reason = ${reason}, updated_at = ${at}
             WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      remove: (workspaceId, id) =>
        lean<{ readonly id: string }>`DELETE FROM social_accounts WHERE workspace_id = ${workspaceId} AND id = ${id}
                                      RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    }
  })
)
