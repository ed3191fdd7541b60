import { declaresTooLarge } from "../body.js"
import type { FaceRequest } from "../exchange.js"
import { ErrorCode, errorReply, isSupportedVersion, type Reply, unsupportedVersionReply } from "./protocol.js"

/** What the transport checks need to know. */
export interface TransportRules {
  readonly maxBodyBytes: number
  readonly originAllowed: (origin: string) => boolean
}

const mediaTypes = (header: string): ReadonlyArray<string> =>
  header.split(",").map((part) => (part.split(";")[0] ?? "").trim().toLowerCase())

// A client sends the same Accept and Content-Type on every call: each check keeps its last header and answer, so a
// busy connection splits and lower-cases them once, not per call (it showed in the bench's CPU profile).
const lastAnswered = (check: (header: string) => boolean) => {
  let header: string | undefined
  let answer = false
  return (value: string): boolean => {
    if (value !== header) {
      answer = check(value)
      header = value
    }
    return answer
  }
}

const acceptListsJson = lastAnswered((accept) =>
  mediaTypes(accept).some((type) => type === "application/json" || type === "application/*" || type === "*/*")
)

// No Accept header means "anything" (RFC 9110 §12.5.1); we only ever answer JSON, never an SSE stream.
const acceptsJson = (accept: string | undefined): boolean => accept === undefined || acceptListsJson(accept)

const namesJson = lastAnswered((contentType) => mediaTypes(contentType)[0] === "application/json")

/** Whether a `Content-Type` names JSON (`application/json`, any parameters); the REST tool calls share the rule. */
export const isJsonContent = (contentType: string | undefined): boolean =>
  contentType !== undefined && namesJson(contentType)

const refuse = (status: number, message: string, headers?: Readonly<Record<string, string>>): Reply =>
  errorReply(status, null, ErrorCode.ServerError, message, headers ? { headers } : undefined)

/**
 * The first transport rule a request to `/mcp` breaks, as the reply to send; `undefined` when it may go
 * on to authentication. Order: method (405), Origin (403), Accept (406), Content-Type (415),
 * Content-Length (413), MCP-Protocol-Version (400). None of them needs the body or the database.
 */
export const transportRefusal = (request: FaceRequest, rules: TransportRules): Reply | undefined => {
  if (request.method !== "POST") {
    return refuse(
      405,
      "this endpoint is stateless: send every JSON-RPC message as a POST; there is no stream to GET or session to DELETE",
      {
        allow: "POST"
      }
    )
  }
  const origin = request.header("origin")
  if (origin !== undefined && !rules.originAllowed(origin)) {
    return refuse(403, `requests from the origin ${origin} are not allowed`)
  }
  if (!acceptsJson(request.header("accept"))) {
    return refuse(406, "answers are application/json; include application/json in Accept")
  }
  if (!isJsonContent(request.header("content-type"))) {
    return refuse(415, "send the JSON-RPC message with Content-Type: application/json")
  }
  if (declaresTooLarge(request.header("content-length"), rules.maxBodyBytes)) {
    return refuse(413, `the request body is larger than ${rules.maxBodyBytes} bytes`)
  }
  const version = request.header("mcp-protocol-version")
  if (version !== undefined && !isSupportedVersion(version.trim())) {
    return unsupportedVersionReply(null, version)
  }
  return undefined
}
