/**
 * MCP protocol constants and JSON-RPC 2.0 envelopes. Bodies are built as strings, so cached JSON
 * (tool lists, tool answers) is spliced in without being parsed or encoded again.
 */
import { isJsonObject } from "../body.js"
import type { Reply } from "../exchange.js"

export type { Reply }

/** The revision without `initialize`: every request names its version in `params._meta`. */
export const STATELESS_VERSION = "2026-07-28"

/** Revisions negotiated through `initialize`, newest first. */
export const HANDSHAKE_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const

/** Every revision served, newest first, as `server/discover` lists them. */
export const SUPPORTED_VERSIONS: ReadonlyArray<string> = [STATELESS_VERSION, ...HANDSHAKE_VERSIONS]

/** Whether a protocol version (from a header or `_meta`) is one we serve. */
export const isSupportedVersion = (version: string): boolean => SUPPORTED_VERSIONS.includes(version)

/** The `_meta` key that carries the protocol version in the stateless revision. */
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion"

/** The result `_meta` key under which the stateless revision names the server on every result. */
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo"

/**
 * The `ttlMs` of the stateless revision's cacheable results (`server/discover`, `tools/list`): five minutes.
 * What a credential is served changes only with its grant, its default toolsets (both fixed when a key is made,
 * and an OAuth token's scope is fixed too) or a new server version, so minutes are honest; the tool server
 * still checks every call, so a stale cache at worst shows a tool that then answers as unknown or forbidden.
 */
export const CACHEABLE_TTL_MS = 300_000

/**
 * The caching fields the stateless revision requires on `server/discover` and `tools/list` results. Both vary
 * with the credential (its grant, its default toolsets) and the request's toolsets, so they are `private`: a
 * cache may reuse them only for the same token (and, the cache key being the request, the same selection).
 */
export const cacheableFields = { ttlMs: CACHEABLE_TTL_MS, cacheScope: "private" } as const

/**
 * JSON-RPC error codes we answer with: JSON-RPC 2.0's standard ones (the numbers the MCP SDK's `ErrorCode` names;
 * written out so the SDK stays a development dependency), and the service description's own codes in JSON-RPC's
 * server-error range (-32000 to -32099), which the SDK's enum does not name (it gives -32000 and -32001 client-side
 * meanings, a closed connection and a timeout).
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Transport refusals and the rate limit (the service description fixes -32000 for 429). */
  ServerError: -32000,
  /** Missing or invalid bearer token (fixed by the service description). */
  Unauthorized: -32001,
  /**
   * A protocol version we do not serve, with `data: { supported, requested }`: the code 2026-07-28 fixed for it
   * (its drafts used -32004, which the revision renumbered into MCP's reserved range).
   */
  UnsupportedProtocolVersion: -32022,
  /** The stateless revision's answer when the HTTP headers and the body name different values (HTTP 400). */
  HeaderMismatch: -32020
} as const

/** A JSON-RPC request id; MCP forbids `null`. */
export type RequestId = string | number

const RESULT_END = new TextEncoder().encode("}")
const VARY_ENCODING = { vary: "accept-encoding" } as const

/** The parts of a JSON-RPC success around a result that is already UTF-8 JSON bytes, in order. */
export const resultAnswer = (id: RequestId, resultBytes: Uint8Array): ReadonlyArray<Uint8Array> => [
  Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`),
  resultBytes,
  RESULT_END
]

/**
 * A JSON-RPC success around a result that is already UTF-8 JSON bytes (a cached `tools/list`): only the
 * envelope is encoded per request, and the result is sent as it is, never copied or re-encoded. The answer
 * varies with `Accept-Encoding` (see {@link gzipAnswerReply}), and says so to caches.
 */
export const resultBytesReply = (id: RequestId, resultBytes: Uint8Array): Reply => ({
  status: 200,
  body: resultAnswer(id, resultBytes),
  headers: VARY_ENCODING
})

/** The same answer as gzip, already compressed (see gzip-answers.ts). */
export const gzipAnswerReply = (answerGzip: Uint8Array): Reply => ({
  status: 200,
  body: answerGzip,
  headers: { ...VARY_ENCODING, "content-encoding": "gzip" }
})

/** A JSON-RPC success carrying a result that is already JSON text. */
export const resultReply = (id: RequestId, resultJson: string, route?: string): Reply => {
  const body = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}`
  return route === undefined ? { status: 200, body } : { status: 200, body, route }
}

/** A JSON-RPC error answer with the given HTTP status. */
export const errorReply = (
  status: number,
  id: RequestId | null,
  code: number,
  message: string,
  options?: { readonly data?: unknown; readonly headers?: Readonly<Record<string, string>> }
): Reply => ({
  status,
  body: JSON.stringify({
    jsonrpc: "2.0",
    id,
    error: options?.data === undefined ? { code, message } : { code, message, data: options.data }
  }),
  ...(options?.headers ? { headers: options.headers } : {})
})

/** The answer to a request for a revision we do not serve. */
export const unsupportedVersionReply = (id: RequestId | null, requested: string): Reply =>
  errorReply(
    400,
    id,
    ErrorCode.UnsupportedProtocolVersion,
    `protocol version ${requested} is not supported; use one of ${SUPPORTED_VERSIONS.join(", ")}`,
    { data: { supported: SUPPORTED_VERSIONS, requested } }
  )

/** One incoming JSON-RPC message, sorted by what the endpoint must do with it. */
export type Incoming =
  | {
      readonly kind: "request"
      readonly id: RequestId
      readonly method: string
      readonly params: Readonly<Record<string, unknown>>
    }
  /** A notification or a response: acknowledged with 202 and no body. */
  | { readonly kind: "acknowledge" }
  | { readonly kind: "batch" }
  | { readonly kind: "invalid"; readonly id: RequestId | null; readonly reason: string }

const isRequestId = (value: unknown): value is RequestId =>
  typeof value === "string" || (typeof value === "number" && Number.isFinite(value))

/** Sorts a parsed body into a request, something to acknowledge, a batch, or an invalid envelope. */
export const classify = (message: unknown): Incoming => {
  if (Array.isArray(message)) return { kind: "batch" }
  if (!isJsonObject(message))
    return { kind: "invalid", id: null, reason: "the body must be one JSON-RPC message object" }
  const id = isRequestId(message.id) ? message.id : null
  if (message.jsonrpc !== "2.0") return { kind: "invalid", id, reason: 'jsonrpc must be "2.0"' }
  const hasId = "id" in message
  if (typeof message.method !== "string") {
    // A response to a request of ours; we never send any, so there is nothing to match it to.
    if (hasId && ("result" in message || "error" in message)) return { kind: "acknowledge" }
    return { kind: "invalid", id, reason: "method must be a string" }
  }
  const params = message.params === undefined ? {} : message.params
  if (!isJsonObject(params)) return { kind: "invalid", id, reason: "params must be an object" }
  if (!hasId) return { kind: "acknowledge" }
  if (id === null) return { kind: "invalid", id: null, reason: "id must be a string or a number" }
  return { kind: "request", id, method: message.method, params }
}
