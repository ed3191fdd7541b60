import type { OAuthAudience, OAuthScope } from "./schema.js"

/** The scopes each audience takes: the tool server `read write`, the store API `store` (or `read write`). */
export const scopesOfAudience: Record<OAuthAudience, ReadonlyArray<OAuthScope>> = {
  tools: ["read", "write"],
  store: ["store", "read", "write"]
}

/** What a missing `scope` means for each audience. */
export const defaultScopesOf: Record<OAuthAudience, ReadonlyArray<OAuthScope>> = {
  tools: ["read", "write"],
  store: ["store"]
}

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
