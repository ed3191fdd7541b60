import { Option } from "effect"

// Core has no WHATWG `URL` (no DOM or Node types), and needs only a little of it: check that an address is an
// absolute http(s) URL, give it one canonical spelling for deduplication, and read a host and path out of it.
const URL_PATTERN =
  /^(https?):\/\/([^/?#\s@]+@)?(\[[0-9a-fA-F:.]+\]|[^/?#:\s[\]]+)(?::(\d{1,5}))?([^?#\s]*)(\?[^#\s]*)?(#\S*)?$/i

/** An absolute http(s) address, split into the parts we use. */
export interface WebAddress {
  /** `http` or `https`, lower case. */
  readonly scheme: string
  /** Host name, lower case, without `www.` left in (see `site`). */
  readonly host: string
  /** Path, `/` at least. */
  readonly path: string
  /** Query string with its `?`, or empty. */
  readonly query: string
  /** The canonical spelling: lower-case scheme and host, no default port, no fragment. */
  readonly href: string
}

/** Parses an absolute http(s) URL; `None` for anything else (relative, other schemes, credentials, spaces). */
export const parseWebAddress = (text: string): Option.Option<WebAddress> => {
  const match = URL_PATTERN.exec(text.trim())
  if (!match) return Option.none()
  const [, rawScheme, userInfo, rawHost, port, rawPath, query] = match
  if (userInfo !== undefined || rawScheme === undefined || rawHost === undefined) return Option.none()
  const scheme = rawScheme.toLowerCase()
  const host = rawHost.toLowerCase().replace(/\.$/, "")
  if (host.length === 0) return Option.none()
  const defaultPort = scheme === "https" ? "443" : "80"
  const portPart = port === undefined || port === defaultPort ? "" : `:${Number(port)}`
  const path = rawPath === undefined || rawPath === "" ? "/" : rawPath
  const queryPart = query === undefined || query === "?" ? "" : query
  return Option.some({
    scheme,
    host,
    path,
    query: queryPart,
    href: `${scheme}://${host}${portPart}${path}${queryPart}`
  })
}

/** The host without a leading `www.` or `m.`, as people name a site. */
export const siteOf = (address: WebAddress): string => address.host.replace(/^(?:www|m|mobile)\./, "")

const words = (segment: string): string => {
  let decoded = segment
  try {
    decoded = decodeURIComponent(segment)
  } catch {
    // A malformed escape stays as written.
  }
  return decoded
    .replace(/\.[a-z0-9]{1,5}$/i, "")
    .replace(/[-_+]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
}

/**
 * A readable title made from the address alone (no network): the last meaningful path segment in words, then
 * the site — `https://blog.example.com/posts/how-to-grow` → "How to grow — blog.example.com".
 */
export const titleFromAddress = (address: WebAddress): string => {
  const site = siteOf(address)
  const segments = address.path.split("/").filter((s) => s.length > 0)
  // Trailing ids and numbers say little; prefer the nearest segment with letters.
  const named = [...segments]
    .reverse()
    .map(words)
    .find((s) => /[a-z]{2}/i.test(s) && !/^[0-9a-f-]{16,}$/i.test(s))
  if (named === undefined) return site
  const title = named.charAt(0).toUpperCase() + named.slice(1)
  const short = title.length > 120 ? `${title.slice(0, 119)}…` : title
  return `${short} — ${site}`
}

/** The last path segment's extension, lower case, without the dot; empty when there is none. */
export const extensionOf = (address: WebAddress): string => {
  const last = address.path.split("/").pop() ?? ""
  const dot = last.lastIndexOf(".")
  return dot <= 0 ? "" : last.slice(dot + 1).toLowerCase()
}
