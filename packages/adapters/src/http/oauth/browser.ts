import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import { type BrowserSessions, currentPolicy } from "@svc/core/auth"
import { NUL_MESSAGE, nulParameter } from "@svc/core/shared"
import { Data, Effect, Option } from "effect"
import { readBodyText } from "../body.js"
import type { PublicUrlShape } from "../config.js"
import { sessionCookieHeader, sessionCookieOf } from "./cookies.js"

const MAX_FORM_BYTES = 16 * 1024

/** The browser session of a request, starting one (with its `Set-Cookie`) when there is none. */
export const ensureSession = (sessions: BrowserSessions, request: HttpServerRequest, auth: PublicUrlShape) =>
  Effect.gen(function* () {
    const found = yield* sessions.resume(sessionCookieOf(request, auth))
    if (Option.isSome(found)) return { session: found.value, headers: {} as Record<string, string> }
    const policy = yield* currentPolicy
    const started = yield* sessions.start
    return {
      session: started.session,
      headers: { "set-cookie": sessionCookieHeader(started.cookie, auth, policy.anonymousSessionMs / 1000) }
    }
  })

/** The live browser session of a request, if any. */
export const existingSession = (sessions: BrowserSessions, request: HttpServerRequest, auth: PublicUrlShape) =>
  sessions.resume(sessionCookieOf(request, auth))

/** The `Set-Cookie` header of a session that was just signed in to. */
export const signedInCookie = (cookie: string, auth: PublicUrlShape) =>
  Effect.map(currentPolicy, (policy) => ({
    "set-cookie": sessionCookieHeader(cookie, auth, policy.signedInSessionMs / 1000)
  }))

/** A posted form or a query whose field holds the NUL character; each page answers it with its error page. */
export class FieldHoldsNul extends Data.TaggedError("FieldHoldsNul")<{ readonly field: string }> {
  override get message() {
    return `The field ${this.field} ${NUL_MESSAGE}.`
  }
}

/** The parameters, or `FieldHoldsNul`: a NUL would reach a lookup or a stored row and fail there as a 500. */
export const refuseNul = (params: URLSearchParams): Effect.Effect<URLSearchParams, FieldHoldsNul> => {
  const field = nulParameter(params)
  return field === undefined ? Effect.succeed(params) : Effect.fail(new FieldHoldsNul({ field }))
}

/** The fields of a posted HTML form (empty when the body is not a readable form). */
export const readPostedForm = (request: HttpServerRequest) =>
  readBodyText(request, MAX_FORM_BYTES).pipe(
    Effect.map((text) => new URLSearchParams(text)),
    Effect.orElseSucceed(() => new URLSearchParams()),
    Effect.flatMap(refuseNul)
  )
