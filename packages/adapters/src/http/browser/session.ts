import * as Cookies from "@effect/platform/Cookies"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import type { Account } from "@svc/core/accounts"
import { type BrowserSession, type BrowserSessions, currentPolicy } from "@svc/core/auth"
import { Duration, Effect, Option } from "effect"
import type { PublicUrlShape } from "../config.js"
import { sessionCookie, sessionCookieOf } from "./cookies.js"

/** A browser session and the cookies its answer must set: a new session's cookie, or none for a resumed one. */
export interface PageSession {
  readonly session: BrowserSession
  readonly cookies: Cookies.Cookies
}

/** The browser session of a request, starting one (with its cookie to set) when there is none. */
export const ensureSession = (
  sessions: BrowserSessions,
  request: HttpServerRequest,
  url: PublicUrlShape
): Effect.Effect<PageSession> =>
  Effect.gen(function* () {
    const found = yield* sessions.resume(sessionCookieOf(request, url))
    if (Option.isSome(found)) return { session: found.value, cookies: Cookies.empty }
    const policy = yield* currentPolicy
    const started = yield* sessions.start
    return {
      session: started.session,
      cookies: sessionCookie(started.cookie, url, Duration.millis(policy.anonymousSessionMs))
    }
  })

/** The live browser session of a request, if any. */
export const existingSession = (sessions: BrowserSessions, request: HttpServerRequest, url: PublicUrlShape) =>
  sessions.resume(sessionCookieOf(request, url))

/** The cookie of a session that was just signed in to (it replaces the anonymous one, with a longer life). */
export const signedInCookie = (cookie: string, url: PublicUrlShape): Effect.Effect<Cookies.Cookies> =>
  Effect.map(currentPolicy, (policy) => sessionCookie(cookie, url, Duration.millis(policy.signedInSessionMs)))

/** The session of a request and the account signed in to it; none when there is no session or nobody signed in. */
export const signedInSession = (
  sessions: BrowserSessions,
  request: HttpServerRequest,
  url: PublicUrlShape
): Effect.Effect<Option.Option<{ readonly session: BrowserSession; readonly account: Account }>> =>
  Effect.flatMap(existingSession(sessions, request, url), (session) =>
    Option.isNone(session)
      ? Effect.succeedNone
      : Effect.map(
          sessions.accountOf(session.value),
          Option.map((account) => ({ session: session.value, account }))
        )
  )
