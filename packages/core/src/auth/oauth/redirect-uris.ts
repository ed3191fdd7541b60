/** Redirect URI rules for registration (RFC 7591 §2, RFC 8252 §7) and for matching at authorize. */

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"])
// Schemes that run code, read local files or carry content inline are never a place to send a code.
const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "file:", "vbscript:", "blob:", "about:", "filesystem:"])
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+.-]*:$/

const parse = (uri: string): URL | undefined => {
  try {
    return new URL(uri)
  } catch {
    return undefined
  }
}

const isLoopback = (url: URL): boolean => url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)

/** Why a redirect URI cannot be registered, or `undefined` when it can. */
export const redirectUriProblem = (uri: string): string | undefined => {
  if (uri.length > 2000) return "a redirect URI may be at most 2000 characters"
  const url = parse(uri)
  if (url === undefined) return `${uri} is not an absolute URI`
  if (url.hash !== "" || uri.includes("#")) return `${uri} carries a fragment; redirect URIs cannot (RFC 6749 §3.1.2)`
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `${url.protocol} redirect URIs are refused`
  if (url.protocol === "https:") return url.hostname === "" ? `${uri} has no host` : undefined
  if (url.protocol === "http:") {
    return isLoopback(url)
      ? undefined
      : `${uri} uses http on a non-loopback host; use https, a loopback address (http://127.0.0.1:<port>/…) or an app's own scheme`
  }
  if (url.protocol === "ws:" || url.protocol === "wss:") return `${url.protocol} redirect URIs are refused`
  return PRIVATE_USE_SCHEME.test(url.protocol) ? undefined : `${url.protocol} is not a usable scheme`
}

/**
 * Whether `requested` is one of the registered URIs: an exact match, except that a loopback URI may
 * name any port (RFC 8252 §7.3: native apps pick a free port at run time).
 */
export const redirectUriRegistered = (registered: ReadonlyArray<string>, requested: string): boolean => {
  if (registered.includes(requested)) return true
  const wanted = parse(requested)
  if (wanted === undefined || !isLoopback(wanted) || wanted.hash !== "") return false
  return registered.some((uri) => {
    const candidate = parse(uri)
    if (candidate === undefined || !isLoopback(candidate)) return false
    candidate.port = wanted.port
    return candidate.href === wanted.href
  })
}

/** What the consent page shows of where the code goes: the host, or the scheme of an app. */
export const redirectHostOf = (uri: string): string => {
  const url = parse(uri)
  if (url === undefined) return uri
  return url.protocol === "http:" || url.protocol === "https:" ? url.host : `${url.protocol}//${url.host}`
}
