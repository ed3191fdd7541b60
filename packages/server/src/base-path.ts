/**
 * Where svc answers under a public URL with a path (`https://app.example/svc`): the router knows svc's paths from the
 * root, so a request under the prefix goes in with the prefix taken off. OAuth discovery is also asked at the host's
 * root with the prefix after the well-known name (RFC 8414 and RFC 9728: `/.well-known/oauth-authorization-server/svc`),
 * which is where MCP clients look; those go in as `/.well-known/oauth-authorization-server`.
 */

/** A public URL without its trailing slash, and its path (empty at the root) as the prefix svc answers under. */
export interface PublicBase {
  readonly base: string
  readonly basePath: string
}

/** Reads a public URL (`name` is the setting it came from); throws when it is not an http(s) URL. A query or fragment is dropped. */
export const parsePublicUrl = (publicUrl: string | URL, name = "publicUrl"): PublicBase => {
  const url = new URL(publicUrl)
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`${name} must be an http or https URL, not ${String(publicUrl)}`)
  }
  const basePath = url.pathname.replace(/\/+$/, "")
  return { base: `${url.origin}${basePath}`, basePath }
}

/** The path the router is asked for `path`, or undefined when `path` is outside `basePath` (and not its discovery). */
export const routedPath = (basePath: string, path: string): string | undefined => {
  if (basePath === "") return path
  if (path === basePath || path.startsWith(`${basePath}/`)) return path.slice(basePath.length) || "/"
  const wellKnown = /^(\/\.well-known\/[^/]+)(\/.*)$/.exec(path)
  const [, name, rest] = wellKnown ?? []
  if (name === undefined || rest === undefined) return undefined
  if (rest === basePath || rest.startsWith(`${basePath}/`)) return `${name}${rest.slice(basePath.length)}`
  return undefined
}
