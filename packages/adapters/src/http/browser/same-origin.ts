import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import type { PublicUrlShape } from "../config.js"

/**
 * Whether a state-changing browser request comes from our own pages: its `Origin` (or, failing that, `Referer`) must
 * be the pages' origin. Browsers send `Origin` on every form POST; a request with neither header is not a browser's
 * and has only the form token to show.
 */
export const sameOrigin = (request: HttpServerRequest, url: PublicUrlShape): boolean => {
  const origin = request.headers.origin
  if (origin !== undefined) return origin === url.origin
  const referer = request.headers.referer
  if (referer === undefined) return true
  try {
    return new URL(referer).origin === url.origin
  } catch {
    return false
  }
}
