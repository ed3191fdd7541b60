import type { BrowserSession, BrowserSessions } from "@svc/core/auth"
import { Effect, Option } from "effect"

/**
 * Spends a form's single-use token (the pages' CSRF token): `true` only when the request has a live session that was
 * handed this token for this `purpose` (one form, or one form of one pending request) and has not used it yet.
 */
export const spendFormToken = (
  sessions: BrowserSessions,
  session: Option.Option<BrowserSession>,
  purpose: string,
  token: string
): Effect.Effect<boolean> =>
  Option.isNone(session) ? Effect.succeed(false) : sessions.useFormToken(session.value, purpose, token)
