import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import type { PublicUrlShape } from "../config.js"

// Over https the `__Host-` prefix makes the browser insist on Secure, Path=/ and no Domain.
const cookieName = (auth: PublicUrlShape): string =>
  auth.base.startsWith("https:") ? "__Host-svc_session" : "svc_session"

/** The session cookie of a request, if any. */
export const sessionCookieOf = (request: HttpServerRequest, auth: PublicUrlShape): string | undefined =>
  request.cookies[cookieName(auth)]

/** A `Set-Cookie` value for the session: HttpOnly, SameSite=Lax, Secure when served over https. */
export const sessionCookieHeader = (value: string, auth: PublicUrlShape, maxAgeSeconds: number): string =>
  [
    `${cookieName(auth)}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    ...(auth.base.startsWith("https:") ? ["Secure"] : [])
  ].join("; ")

/** A `Set-Cookie` value that removes the session cookie. */
export const clearedSessionCookieHeader = (auth: PublicUrlShape): string => sessionCookieHeader("", auth, 0)
