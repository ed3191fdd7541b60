import { ResearchCache } from "@svc/core/research"
import { withSpan } from "@svc/core/shared"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface CacheRow {
  /** The value as JSON text: read as text, a JSON string is never mistaken for JSON to parse again. */
  readonly value: string
  readonly fetched_at: Date
}

/**
 * A value as `jsonb` text. `jsonb` refuses the NUL character (`\u0000`) in a string, which no text a source answers
 * needs: it is dropped rather than the whole answer refused. `undefined` is stored as JSON `null`.
 */
const jsonbText = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === "string" ? v.replaceAll("\u0000", "") : v)) ?? "null"

/**
 * `ResearchCache` over SQL: one `research_cache` row per key, shared by every instance. An entry is answered while
 * `now` is before its `expires_at`; from then on it is only waiting for `purgeExpired`.
 */
export const ResearchCacheLive = Layer.effect(
  ResearchCache,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      get: (key, now) =>
        lean<CacheRow>`SELECT value::text AS value, fetched_at FROM research_cache WHERE key = ${key} AND expires_at > ${now}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              value: JSON.parse(row.value) as unknown,
              fetchedAt: row.fetched_at
            }))
          ),
          Effect.orDie,
          withSpan("ResearchCache.get", { captureStackTrace: false })
        ),
      put: (key, value, fetchedAt, expiresAt) =>
        lean`INSERT INTO research_cache (key, value, fetched_at, expires_at)
             VALUES (${key}, ${jsonbText(value)}::jsonb, ${fetchedAt}, ${expiresAt})
             ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, fetched_at = EXCLUDED.fetched_at,
                                             expires_at = EXCLUDED.expires_at`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("ResearchCache.put", { captureStackTrace: false })
        ),
      // The oldest expired first; rows another instance is purging (or a `put` is renewing) are skipped, and the
      // expiry is checked again on the locked row, so a renewed entry stays.
      purgeExpired: (now, limit) =>
        limit <= 0
          ? Effect.succeed(0)
          : lean<{ readonly n: number }>`
              WITH purged AS (
                DELETE FROM research_cache
                WHERE key IN (SELECT key FROM research_cache WHERE expires_at <= ${now}
                              ORDER BY expires_at LIMIT ${limit}::int FOR UPDATE SKIP LOCKED)
                  AND expires_at <= ${now}
                RETURNING 1
              )
              SELECT count(*)::int AS n FROM purged`.pipe(
              Effect.map((rows) => rows[0]?.n ?? 0),
              Effect.orDie,
              withSpan("ResearchCache.purgeExpired", { captureStackTrace: false })
            )
    }
  })
)
