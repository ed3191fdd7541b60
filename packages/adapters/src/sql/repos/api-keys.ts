import * as SqlClient from "@effect/sql/SqlClient"
import { Access, ApiKey, ApiKeysRepo, Part } from "@svc/core/auth"
import { trusted } from "@svc/core/shared"
import { Effect, Layer, Option, Schema } from "effect"
import { jsonColumn } from "../json-column.js"
import { LeanSql } from "../lean.js"
import { withSpan } from "@svc/core/shared"

interface KeyRow {
  readonly id: string
  readonly account_id: string
  readonly workspace_id: string
  readonly name: string
  readonly prefix: string
  readonly access: unknown
  readonly toolsets: unknown
  readonly created_at: Date
  readonly last_used_at: Date | null
  readonly expires_at: Date | null
  readonly revoked_at: Date | null
}

// jsonb may arrive parsed or as text depending on the engine's parsers; accept both. The grant is checked; the
// other columns come from our own database as the schema wants them, so the class does not validate them again.
const decodeAccess = Schema.decodeUnknownSync(Access)
const decodeToolsets = Schema.decodeUnknownSync(Schema.NullOr(Schema.Array(Part)))
const toKey = (row: KeyRow) =>
  new ApiKey(
    {
      id: row.id,
      accountId: row.account_id,
      workspaceId: row.workspace_id,
      name: row.name,
      prefix: row.prefix,
      access: decodeAccess(jsonColumn(row.access)),
      toolsets: row.toolsets === null ? null : decodeToolsets(jsonColumn(row.toolsets)),
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at
    },
    trusted
  )

const columns =
  "id, account_id, workspace_id, name, prefix, access, toolsets, created_at, last_used_at, expires_at, revoked_at"

/** `ApiKeysRepo` over SQL; only the SHA-256 of a token is ever stored. */
export const ApiKeysRepoSql = Layer.effect(
  ApiKeysRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      insert: (key, tokenHash) =>
        lean`INSERT INTO api_keys (id, account_id, workspace_id, name, prefix, token_hash, access, toolsets, created_at, expires_at)
            VALUES (${key.id}, ${key.accountId}, ${key.workspaceId}, ${key.name}, ${key.prefix}, ${tokenHash},
                    ${JSON.stringify(key.access)}::jsonb, ${key.toolsets === null ? null : JSON.stringify(key.toolsets)}::jsonb,
                    ${key.createdAt}, ${key.expiresAt})`.pipe(Effect.asVoid, Effect.orDie),
      findByHash: (tokenHash) =>
        sql<KeyRow>`SELECT ${sql.literal(columns)} FROM api_keys WHERE token_hash = ${tokenHash}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toKey)),
          Effect.orDie,
          withSpan("ApiKeysRepo.findByHash")
        ),
      listByAccount: (accountId) =>
        sql<KeyRow>`SELECT ${sql.literal(columns)} FROM api_keys WHERE account_id = ${accountId}
                    ORDER BY created_at DESC, id DESC`.pipe(
          Effect.map((rows) => rows.map(toKey)),
          Effect.orDie
        ),
      revoke: (keyId, accountId, at) =>
        sql`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ${at})
            WHERE id = ${keyId} ${accountId === undefined ? sql`` : sql`AND account_id = ${accountId}`} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      touch: (keyId, at) =>
        lean`UPDATE api_keys SET last_used_at = ${at} WHERE id = ${keyId}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
)
