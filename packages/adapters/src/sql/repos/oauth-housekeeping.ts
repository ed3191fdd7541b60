import * as SqlClient from "@effect/sql/SqlClient"
import { OAuthHousekeepingRepo } from "@svc/core/auth"
import { Effect, Layer } from "effect"
import { LeanSql } from "../lean.js"
import { withSpan } from "@svc/core/shared"

/** `OAuthHousekeepingRepo` over SQL: one bounded delete per table, all in one transaction. */
export const OAuthHousekeepingRepoSql = Layer.effect(
  OAuthHousekeepingRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      purgeExpired: (cutoffs, limit) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const counts = [
                yield* lean`DELETE FROM oauth_form_tokens WHERE token_hash IN (
                             SELECT token_hash FROM oauth_form_tokens WHERE expires_at < ${cutoffs.shortLived} LIMIT ${limit})
                           RETURNING 1`,
                yield* lean`DELETE FROM oauth_pending WHERE id IN (
                             SELECT id FROM oauth_pending WHERE expires_at < ${cutoffs.shortLived} LIMIT ${limit})
                           RETURNING 1`,
                yield* lean`DELETE FROM oauth_sessions WHERE id_hash IN (
                             SELECT id_hash FROM oauth_sessions WHERE expires_at < ${cutoffs.shortLived} LIMIT ${limit})
                           RETURNING 1`,
                yield* lean`DELETE FROM oauth_codes WHERE code_hash IN (
                             SELECT code_hash FROM oauth_codes WHERE expires_at < ${cutoffs.shortLived} LIMIT ${limit})
                           RETURNING 1`,
                yield* lean`DELETE FROM oauth_tokens WHERE token_hash IN (
                             SELECT token_hash FROM oauth_tokens WHERE expires_at < ${cutoffs.tokens} LIMIT ${limit})
                           RETURNING 1`
              ]
              return Math.max(...counts.map((rows) => rows.length))
            })
          )
          .pipe(Effect.orDie, withSpan("OAuthHousekeepingRepo.purgeExpired"))
    }
  })
)
