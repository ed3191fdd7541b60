import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { BrowserSession, BrowserSessions } from "@svc/core/auth"
import type { RateLimiter } from "@svc/core/limits"
import { type Context, Effect, type Option } from "effect"
import { errorPages, existingSession, readPostedForm, sameOrigin, spendFormToken } from "../browser/index.js"
import type { PublicUrl } from "../config.js"
import { requesterOf } from "../requester.js"
import { notePage } from "./pages.js"

/**
 * Posts (sign-ups, form answers, checkouts) one address may send to one store's page in `PUBLIC_POST_WINDOW_MS`: a
 * person never needs more, and a household or office behind one address still fits.
 */
export const PUBLIC_POSTS_PER_WINDOW = 30
export const PUBLIC_POST_WINDOW_MS = 10 * 60_000

/** A post the checks let through (its fields and the visitor's session), or the page that refuses it. */
export type Admitted =
  | { readonly fields: URLSearchParams; readonly session: Option.Option<BrowserSession> }
  | { readonly refused: HttpServerResponse.HttpServerResponse }

/**
 * The checks every public post passes before it is read: our own origin, the form's single-use token of the visitor's
 * browser session, and the address's rate per `place` (a store's handle, a checkout), so a flood on one page does not
 * lock its sender out of every other. With `spendToken: false` the caller spends the token itself (in the transaction
 * of what the post does, as the checkout does), and the answer carries the session to spend it with.
 */
export const makePublicPost = (
  url: Context.Tag.Service<PublicUrl>,
  sessions: BrowserSessions,
  limiter: Context.Tag.Service<RateLimiter>
) => {
  const errors = errorPages(url.base)
  return (
    request: HttpServerRequest,
    place: string,
    purpose: string,
    options: { readonly spendToken: boolean } = { spendToken: true }
  ): Effect.Effect<Admitted> =>
    Effect.gen(function* () {
      if (!sameOrigin(request, url)) return { refused: errors.crossSite() }
      const fields = yield* readPostedForm(request).pipe(Effect.orElseSucceed(() => new URLSearchParams()))
      const session = yield* existingSession(sessions, request, url)
      const token = fields.get("csrf") ?? ""
      if (options.spendToken && !(yield* spendFormToken(sessions, session, purpose, token))) {
        return { refused: errors.formExpired("Go back, reload the page and send it again.") }
      }
      const rate = yield* limiter.take(
        `public-post:${place}:${requesterOf(request)}`,
        PUBLIC_POSTS_PER_WINDOW,
        PUBLIC_POST_WINDOW_MS
      )
      if (!rate.allowed) {
        return {
          refused: notePage({
            base: url.base,
            title: "Too many tries",
            message: `Please wait ${Math.ceil(rate.retryAfterMs / 60_000)} minutes and try again.`,
            status: 429
          })
        }
      }
      return { fields, session }
    })
}
