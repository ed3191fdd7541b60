/**
 * The `Origin` allow-list of `/mcp`. Browsers send `Origin` on cross-site requests; checking it is the
 * MCP transport's defence against DNS rebinding, where a web page reaches a server on localhost.
 */

interface OriginPattern {
  readonly protocol: string
  readonly hostname: string
  /** `undefined` matches any port. */
  readonly port: string | undefined
}

const parseOrigin = (text: string): URL | undefined => {
  try {
    const url = new URL(text)
    return url.origin === "null" ? undefined : url
  } catch {
    return undefined
  }
}

const parsePattern = (pattern: string): OriginPattern => {
  const anyPort = pattern.endsWith(":*")
  const url = parseOrigin(anyPort ? pattern.slice(0, -2) : pattern)
  if (url === undefined) throw new Error(`allowed origin ${pattern} is not an origin like https://example.com`)
  return { protocol: url.protocol, hostname: url.hostname, port: anyPort ? undefined : url.port }
}

/** The default allow-list: the public origin and local development hosts on any port. */
export const defaultAllowedOrigins = (publicOrigin: string): ReadonlyArray<string> => [
  publicOrigin,
  "http://localhost:*",
  "http://127.0.0.1:*"
]

/** A check of an `Origin` header value against allowed origins (`:*` as the port matches any port). */
export const makeOriginCheck = (allowed: ReadonlyArray<string>): ((origin: string) => boolean) => {
  const patterns = allowed.map(parsePattern)
  return (origin) => {
    const url = parseOrigin(origin)
    if (url === undefined) return false
    return patterns.some(
      (pattern) =>
        pattern.protocol === url.protocol &&
        pattern.hostname === url.hostname &&
        (pattern.port === undefined || pattern.port === url.port)
    )
  }
}
