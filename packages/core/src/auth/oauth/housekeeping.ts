import { Clock, Context, Duration, Effect, Layer, Schedule } from "effect"
import { withSpan } from "../../shared/spans.js"

/** How long after they expire the authorization server's rows are deleted. */
export const OAUTH_KEEP_AFTER_EXPIRY = {
  /** Browser sessions, form tokens, pending requests and codes: none is of any use once expired. */
  shortLivedMs: 86_400_000,
  // A rotated refresh token reused late revokes its grant; its row stays a month past expiry so a stolen
  // copy replayed in that time is still recognised as such.
  tokensMs: 30 * 86_400_000
} as const

/** Rows deleted per table and statement, so a large backlog never holds locks for long. */
export const OAUTH_PURGE_BATCH = 1000

/** Removes the authorization server's expired rows. */
export class OAuthHousekeepingRepo extends Context.Tag("svc/auth/oauth/OAuthHousekeepingRepo")<
  OAuthHousekeepingRepo,
  {
    /**
     * Deletes up to `limit` rows of each table that expired before its cutoff (sessions, form tokens,
     * pending requests and codes before `shortLived`; access and refresh tokens before `tokens`); answers
     * the most any one table lost, so a caller repeats while that equals `limit`.
     */
    readonly purgeExpired: (
      cutoffs: { readonly shortLived: Date; readonly tokens: Date },
      limit: number
    ) => Effect.Effect<number>
  }
>() {}

/** Deletes every expired row past its keeping time, in batches; answers how many batches ran. */
export const purgeExpiredOAuth = Effect.gen(function* () {
  const repo = yield* OAuthHousekeepingRepo
  const now = yield* Clock.currentTimeMillis
  const cutoffs = {
    shortLived: new Date(now - OAUTH_KEEP_AFTER_EXPIRY.shortLivedMs),
    tokens: new Date(now - OAUTH_KEEP_AFTER_EXPIRY.tokensMs)
  }
  let batches = 0
  while (true) {
    batches += 1
    if ((yield* repo.purgeExpired(cutoffs, OAUTH_PURGE_BATCH)) < OAUTH_PURGE_BATCH) return batches
  }
}).pipe(withSpan("OAuth.purgeExpired"))

/** A layer that runs `purgeExpiredOAuth` now and then every `every` (default one hour) while alive. */
export const OAuthPurgeLive = (every: Duration.DurationInput = Duration.hours(1)) =>
  Layer.scopedDiscard(
    Effect.forkScoped(
      purgeExpiredOAuth.pipe(
        Effect.catchAllCause((cause) => Effect.logError("OAuth purge failed", cause)),
        Effect.repeat(Schedule.spaced(every))
      )
    )
  )
