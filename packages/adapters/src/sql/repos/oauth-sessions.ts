import { BrowserSessionsRepo, knownScopes, OAuthAudience, PendingAuthorization } from "@svc/core/auth"
import { Effect, Layer, Option, Schema } from "effect"
import { LeanSql } from "../lean.js"
import { withSpan } from "@svc/core/shared"

interface PendingRow {
  readonly id: string
  readonly client_id: string
  readonly redirect_uri: string
  readonly state: string | null
  readonly scopes: string
  readonly code_challenge: string
  readonly resource: string
  readonly audience: string
  readonly created_at: Date
  readonly expires_at: Date
}

const decodeAudience = Schema.decodeUnknownSync(OAuthAudience)

const toPending = (row: PendingRow) =>
  new PendingAuthorization({
    id: row.id,
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    state: row.state,
    scopes: knownScopes(row.scopes),
    codeChallenge: row.code_challenge,
    resource: row.resource,
    audience: decodeAudience(row.audience),
    createdAt: row.created_at,
    expiresAt: row.expires_at
  })

/** `BrowserSessionsRepo` over SQL: sessions and form tokens by hash, pending authorization requests. */
export const BrowserSessionsRepoSql = Layer.effect(
  BrowserSessionsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      insert: (session, createdAt) =>
        lean`INSERT INTO oauth_sessions (id_hash, account_id, created_at, expires_at)
            VALUES (${session.hash}, ${session.accountId}, ${createdAt}, ${session.expiresAt})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      find: (hash, now) =>
        lean<{ id_hash: string; account_id: string | null; expires_at: Date }>`
          SELECT id_hash, account_id, expires_at FROM oauth_sessions WHERE id_hash = ${hash} AND expires_at > ${now}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              hash: row.id_hash,
              accountId: row.account_id,
              expiresAt: row.expires_at
            }))
          ),
          Effect.orDie,
          withSpan("BrowserSessionsRepo.find")
        ),
      remove: (hash) => lean`DELETE FROM oauth_sessions WHERE id_hash = ${hash}`.pipe(Effect.asVoid, Effect.orDie),
      rebindPending: (fromHash, toHash) =>
        lean`UPDATE oauth_pending SET session_hash = ${toHash} WHERE session_hash = ${fromHash}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      insertFormToken: (tokenHash, sessionHash, purpose, expiresAt) =>
        lean`INSERT INTO oauth_form_tokens (token_hash, session_hash, purpose, expires_at)
            VALUES (${tokenHash}, ${sessionHash}, ${purpose}, ${expiresAt})`.pipe(Effect.asVoid, Effect.orDie),
      consumeFormToken: (tokenHash, sessionHash, purpose, now) =>
        lean`UPDATE oauth_form_tokens SET used_at = ${now}
            WHERE token_hash = ${tokenHash} AND session_hash = ${sessionHash} AND purpose = ${purpose}
              AND used_at IS NULL AND expires_at > ${now}
            RETURNING token_hash`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      insertPending: (pending, sessionHash) =>
        lean`INSERT INTO oauth_pending (id, session_hash, client_id, redirect_uri, state, scopes, code_challenge, resource,
                                       audience, created_at, expires_at)
            VALUES (${pending.id}, ${sessionHash}, ${pending.clientId}, ${pending.redirectUri}, ${pending.state},
                    ${pending.scopes.join(" ")}, ${pending.codeChallenge}, ${pending.resource}, ${pending.audience},
                    ${pending.createdAt}, ${pending.expiresAt})`.pipe(Effect.asVoid, Effect.orDie),
      findPending: (id, sessionHash, now) =>
        lean<PendingRow>`SELECT id, client_id, redirect_uri, state, scopes, code_challenge, resource, audience, created_at,
                               expires_at
                        FROM oauth_pending
                        WHERE id = ${id} AND session_hash = ${sessionHash} AND completed_at IS NULL
                          AND expires_at > ${now}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toPending)),
          Effect.orDie
        ),
      completePending: (id, sessionHash, now) =>
        lean`UPDATE oauth_pending SET completed_at = ${now}
            WHERE id = ${id} AND session_hash = ${sessionHash} AND completed_at IS NULL AND expires_at > ${now}
            RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
    }
  })
)
