import * as Cookies from "@effect/platform/Cookies"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import type { Duration } from "effect"
import type { PublicUrlShape } from "../config.js"

const servedOverHttps = (url: PublicUrlShape): boolean => url.base.startsWith("https:")

// Over https the `__Host-` prefix makes the browser insist on Secure, Path=/ and no Domain.
const sessionCookieName = (url: PublicUrlShape): string => (servedOverHttps(url) ? "__Host-svc_session" : "svc_session")

/** The session cookie of a request, if any. */
export const sessionCookieOf = (request: HttpServerRequest, url: PublicUrlShape): string | undefined =>
  request.cookies[sessionCookieName(url)]

/**
 * The session cookie holding `value` for `maxAge`: HttpOnly (no script reads it), SameSite=Lax (no other site's form
 * post carries it), Path=/, and Secure when served over https. A session value is base64url, which a cookie always
 * takes, so making it cannot fail.
 */
export const sessionCookie = (value: string, url: PublicUrlShape, maxAge: Duration.DurationInput): Cookies.Cookies =>
  Cookies.fromIterable([
    Cookies.unsafeMakeCookie(sessionCookieName(url), value, {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      maxAge,
      secure: servedOverHttps(url)
    })
  ])

/**
 * The first-party cookie that remembers an affiliate's code for one product's checkout for `days`: a buyer who comes
 * back later without the link still counts as theirs. HttpOnly, SameSite=Lax, Secure over https.
 */
export const affiliateCookie = (productId: string, code: string, url: PublicUrlShape, days: number): Cookies.Cookies =>
  Cookies.fromIterable([
    Cookies.unsafeMakeCookie(affiliateCookieName(productId), code, {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      maxAge: `${days} days`,
      secure: servedOverHttps(url)
    })
  ])

/** The name of a product's affiliate cookie (product ids are letters, digits and underscores). */
export const affiliateCookieName = (productId: string) => `svc_via_${productId.replace(/[^A-Za-z0-9_]/g, "")}`

/** The cookie that removes the session cookie from the browser. */
export const clearedSessionCookie = (url: PublicUrlShape): Cookies.Cookies => sessionCookie("", url, 0)
