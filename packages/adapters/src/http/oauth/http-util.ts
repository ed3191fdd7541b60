import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Option } from "effect"
import type { PublicUrlShape } from "../config.js"

/** The `no-store` caching headers every OAuth answer carries (RFC 6749 §5.1). */
export const noStore = { "cache-control": "no-store", pragma: "no-cache" } as const

/** A JSON answer that no cache keeps. */
export const jsonNoStore = (status: number, body: unknown, headers?: Readonly<Record<string, string>>) =>
  HttpServerResponse.text(JSON.stringify(body), {
    status,
    contentType: "application/json",
    headers: { ...noStore, ...headers }
  })

/** The query of a request as ordered pairs (repeated names kept, so duplicates can be refused). */
export const queryPairs = (request: HttpServerRequest): ReadonlyArray<readonly [string, string]> => [
  ...new URL(request.url, "http://localhost").searchParams.entries()
]

/** Who is calling, for rate limits: the peer address. Forwarded headers are not trusted. */
export const requesterOf = (request: HttpServerRequest): string =>
  Option.getOrElse(request.remoteAddress, () => "unknown")

/**
 * Whether a state-changing browser request comes from our own pages: its `Origin` (or, failing that,
 * `Referer`) must be the authorization server's origin. Browsers send `Origin` on every form POST;
 * a request with neither header is not a browser's and has only the form token to show.
 */
export const sameOrigin = (request: HttpServerRequest, auth: PublicUrlShape): boolean => {
  const origin = request.headers.origin
  if (origin !== undefined) return origin === auth.origin
  const referer = request.headers.referer
  if (referer === undefined) return true
  try {
    return new URL(referer).origin === auth.origin
  } catch {
    return false
  }
}

/** A `Location` with parameters added to the query (keeping any the redirect URI already has). */
export const withQuery = (uri: string, params: Readonly<Record<string, string>>): string => {
  const url = new URL(uri)
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
  return url.href
}
