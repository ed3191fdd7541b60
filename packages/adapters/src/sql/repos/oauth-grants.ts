import * as SqlClient from "@effect/sql/SqlClient"
import { knownScopes, OAuthAudience, OAuthGrantsRepo, type StoredCode } from "@svc/core/auth"
import { Effect, Layer, Option, Schema } from "effect"
import { jsonColumn } from "../json-column.js"
import { LeanSql } from "../lean.js"
import { withSpan } from "@svc/core/shared"

interface CodeRow {
  readonly client_id: string
  readonly account_id: string
  readonly redirect_uri: string
  readonly code_challenge: string
  readonly scopes: string
  readonly resource: string
  readonly audience: string
  readonly expires_at: Date
  readonly used_at: Date | null
  readonly grant_id: string | null
}

interface TokenRow {
  readonly id: string
  readonly kind: "access" | "refresh"
  readonly scopes: string
  readonly created_at: Date
  readonly expires_at: Date
  readonly revoked_at: Date | null
  readonly rotated_at: Date | null
  readonly grant_id: string
  readonly client_id: string
  readonly account_id: string
  readonly grant_scopes: string
  readonly resource: string
  readonly audience: string
  readonly grant_created_at: Date
  readonly grant_revoked_at: Date | null
}

const decodeAudience = Schema.decodeUnknownSync(OAuthAudience)

const toCode = (row: CodeRow): StoredCode => ({
  clientId: row.client_id,
  accountId: row.account_id,
  redirectUri: row.redirect_uri,
  codeChallenge: row.code_challenge,
  scopes: knownScopes(row.scopes),
  resource: row.resource,
  audience: decodeAudience(row.audience),
  expiresAt: row.expires_at,
  usedAt: row.used_at,
  grantId: row.grant_id
})

const toToken = (row: TokenRow) => ({
  id: row.id,
  kind: row.kind,
  scopes: knownScopes(row.scopes),
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  rotatedAt: row.rotated_at,
  grant: {
    id: row.grant_id,
    clientId: row.client_id,
    accountId: row.account_id,
    scopes: knownScopes(row.grant_scopes),
    resource: row.resource,
    audience: decodeAudience(row.audience),
    createdAt: row.grant_created_at,
    revokedAt: row.grant_revoked_at
  }
})

const codeColumns =
  "client_id, account_id, redirect_uri, code_challenge, scopes, resource, audience, expires_at, used_at, grant_id"

/** `OAuthGrantsRepo` over SQL: codes and tokens by SHA-256 only; a grant's revocation ends all its tokens. */
export const OAuthGrantsRepoSql = Layer.effect(
  OAuthGrantsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      insertCode: (codeHash, code, createdAt) =>
        lean`INSERT INTO oauth_codes (code_hash, client_id, account_id, redirect_uri, code_challenge, scopes, resource,
                                     audience, created_at, expires_at)
            VALUES (${codeHash}, ${code.clientId}, ${code.accountId}, ${code.redirectUri}, ${code.codeChallenge},
                    ${code.scopes.join(" ")}, ${code.resource}, ${code.audience}, ${createdAt}, ${code.expiresAt})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      consumeCode: (codeHash, now, grantId) =>
        Effect.gen(function* () {
          // One statement claims the code, so two exchanges racing cannot both win.
          const claimed = yield* sql<CodeRow>`
            UPDATE oauth_codes SET used_at = ${now}, grant_id = ${grantId}
            WHERE code_hash = ${codeHash} AND used_at IS NULL
            RETURNING ${sql.literal(codeColumns)}`
          const first = claimed[0]
          if (first !== undefined) return Option.some({ code: toCode(first), replayed: false })
          const seen =
            yield* sql<CodeRow>`SELECT ${sql.literal(codeColumns)} FROM oauth_codes WHERE code_hash = ${codeHash}`
          return Option.map(Option.fromNullable(seen[0]), (row) => ({ code: toCode(row), replayed: true }))
        }).pipe(Effect.orDie, withSpan("OAuthGrantsRepo.consumeCode")),
      insertGrant: (grant) =>
        lean`INSERT INTO oauth_grants (id, client_id, account_id, scopes, resource, audience, created_at)
            VALUES (${grant.id}, ${grant.clientId}, ${grant.accountId}, ${grant.scopes.join(" ")}, ${grant.resource},
                    ${grant.audience}, ${grant.createdAt})`.pipe(Effect.asVoid, Effect.orDie),
      revokeGrant: (grantId, at) =>
        lean`UPDATE oauth_grants SET revoked_at = coalesce(revoked_at, ${at}) WHERE id = ${grantId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      insertToken: (tokenHash, token) =>
        lean`INSERT INTO oauth_tokens (token_hash, id, grant_id, kind, scopes, created_at, expires_at)
            VALUES (${tokenHash}, ${token.id}, ${token.grantId}, ${token.kind}, ${token.scopes.join(" ")},
                    ${token.createdAt}, ${token.expiresAt})`.pipe(Effect.asVoid, Effect.orDie),
      findToken: (tokenHash) =>
        lean<TokenRow>`
          SELECT t.id, t.kind, t.scopes, t.created_at, t.expires_at, t.revoked_at, t.rotated_at,
                 g.id AS grant_id, g.client_id, g.account_id, g.scopes AS grant_scopes, g.resource, g.audience,
                 g.created_at AS grant_created_at, g.revoked_at AS grant_revoked_at
          FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
          WHERE t.token_hash = ${tokenHash}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toToken)),
          Effect.orDie,
          withSpan("OAuthGrantsRepo.findToken")
        ),
      rotateToken: (tokenHash, at) =>
        lean`UPDATE oauth_tokens SET rotated_at = ${at} WHERE token_hash = ${tokenHash} AND rotated_at IS NULL
            RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      revokeToken: (tokenHash, at) =>
        lean`UPDATE oauth_tokens SET revoked_at = coalesce(revoked_at, ${at}) WHERE token_hash = ${tokenHash}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      listConnections: (accountId, audience) =>
        sql<{ client_id: string; name: string | null; redirect_uris: unknown; scopes: string; created_at: Date }>`
          SELECT DISTINCT ON (g.client_id) g.client_id, c.name, c.redirect_uris, g.scopes, g.created_at
          FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
          WHERE g.account_id = ${accountId} AND g.revoked_at IS NULL
            ${audience === undefined ? sql`` : sql`AND g.audience = ${audience}`}
          ORDER BY g.client_id, g.created_at DESC`.pipe(
          Effect.map((rows) =>
            rows
              .map((row) => {
                const uris = jsonColumn(row.redirect_uris)
                return {
                  clientId: row.client_id,
                  clientName: row.name,
                  redirectUri: Array.isArray(uris) && typeof uris[0] === "string" ? uris[0] : "",
                  scopes: knownScopes(row.scopes),
                  connectedAt: row.created_at
                }
              })
              .sort((a, b) => b.connectedAt.getTime() - a.connectedAt.getTime())
          ),
          Effect.orDie
        ),
      revokeClientGrants: (accountId, clientId, at) =>
        lean`UPDATE oauth_grants SET revoked_at = ${at}
            WHERE account_id = ${accountId} AND client_id = ${clientId} AND revoked_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        )
    }
  })
)
