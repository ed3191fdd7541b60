import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { noStore } from "../browser/index.js"

/** A JSON answer that no cache keeps (RFC 6749 §5.1). */
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

/** A `Location` with parameters added to the query (keeping any the redirect URI already has). */
export const withQuery = (uri: string, params: Readonly<Record<string, string>>): string => {
  const url = new URL(uri)
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
  return url.href
}
