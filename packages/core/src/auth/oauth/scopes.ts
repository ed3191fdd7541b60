import { type Access, fullAccess, readOnlyAccess } from "../access.js"
import type { OAuthAudience, OAuthFace, OAuthScope } from "./schema.js"

/**
 * The scopes each audience takes. A grant named for the tool server (`resource=<base>/mcp`) takes `read write`; one
 * for the store API takes `store` or `read write`; one without `resource` takes all three, and its scopes decide
 * which faces it reaches.
 */
export const scopesOfAudience: Record<OAuthAudience, ReadonlyArray<OAuthScope>> = {
  tools: ["read", "write"],
  store: ["store", "read", "write"],
  any: ["read", "write", "store"]
}

/**
 * What a missing `scope` means for each audience (when the client registered no scopes of its own): the tool
 * server's and an unnamed resource's are `read write`, as MCP clients that send no scope expect; the store API's
 * is `store`, the automation tool's first connection.
 */
export const defaultScopesOf: Record<OAuthAudience, ReadonlyArray<OAuthScope>> = {
  tools: ["read", "write"],
  store: ["store"],
  any: ["read", "write"]
}

/** Whether a grant for `audience` may be presented to `face` at all (RFC 8707: a named resource narrows). */
export const audienceReaches = (audience: OAuthAudience, face: OAuthFace): boolean =>
  audience === "any" || audience === face

/**
 * What `scopes` allow on `face`, or `undefined` when they reach nothing there (a `store`-only token on the tools).
 * On the tools: `write` is full access, `read` reads every part. On the store API: `store` or `write` records changes
 * (product changes stay with API keys, see `requireProductEditor`), `read` only reads.
 */
export const accessAt = (face: OAuthFace, scopes: ReadonlyArray<OAuthScope>): Access | undefined => {
  if (face === "store") {
    const store = scopes.includes("store") || scopes.includes("write") ? "edit" : "read"
    return scopes.length === 0 ? undefined : { kind: "custom", parts: { store } }
  }
  if (scopes.includes("write")) return fullAccess
  return scopes.includes("read") ? readOnlyAccess : undefined
}

/** The scopes a client should ask for to use the tools, changes included (a `WWW-Authenticate` `scope` attribute). */
export const TOOL_SCOPES = "read write"

const ORDER: ReadonlyArray<OAuthScope> = ["read", "write", "store"]

/** A `scope` parameter as a set of scopes in a fixed order, or the unknown names it carries. */
export const parseScope = (
  text: string
): { readonly scopes: ReadonlyArray<OAuthScope> } | { readonly unknown: ReadonlyArray<string> } => {
  const names = text.split(" ").filter((name) => name.length > 0)
  const unknown = names.filter((name) => !(ORDER as ReadonlyArray<string>).includes(name))
  if (unknown.length > 0) return { unknown }
  return { scopes: ORDER.filter((scope) => names.includes(scope)) }
}

/** A scope set as the space-separated text of the protocol. */
export const formatScope = (scopes: ReadonlyArray<OAuthScope>): string => scopes.join(" ")

/** Whether every scope of `inner` is in `outer`. */
export const isSubset = (inner: ReadonlyArray<OAuthScope>, outer: ReadonlyArray<OAuthScope>): boolean =>
  inner.every((scope) => outer.includes(scope))

/** The scopes of a `scope` parameter this server knows, in a fixed order; other names are dropped. */
export const knownScopes = (text: string): ReadonlyArray<OAuthScope> => {
  const names = text.split(" ")
  return ORDER.filter((scope) => names.includes(scope))
}
