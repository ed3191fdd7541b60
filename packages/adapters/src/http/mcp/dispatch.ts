import type { Principal } from "@svc/core/auth"
import { excerpt } from "@svc/core/shared"
import { type ListedTool, type ToolRefusal, type ToolSelection, ToolServer } from "@svc/core/tools"
import { Clock, Effect } from "effect"
import type { ToolGate } from "../auth.js"
import { acceptsGzip } from "../accept-encoding.js"
import { isJsonObject } from "../body.js"
import {
  cacheableFields,
  ErrorCode,
  errorReply,
  gzipAnswerReply,
  HANDSHAKE_VERSIONS,
  isSupportedVersion,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  type Reply,
  type RequestId,
  resultBytesReply,
  resultReply,
  STATELESS_VERSION,
  SUPPORTED_VERSIONS,
  unsupportedVersionReply
} from "./protocol.js"
import { instructionsAt, serverCapabilities, serverInfo, serverInstructions } from "./server-info.js"
import { makeToolListEncoder } from "./tool-list.js"

/** One JSON-RPC request (not a notification) from an authenticated caller. */
export interface McpRequest {
  readonly principal: Principal
  /** The request's toolset selection (see `toolSelectionOf`); `undefined`: every tool the caller may use. */
  readonly selection: ToolSelection | undefined
  readonly id: RequestId
  readonly method: string
  readonly params: Readonly<Record<string, unknown>>
  /** The `MCP-Protocol-Version` header, already checked to be a version we serve. */
  readonly headerVersion: string | undefined
  /** The `Accept-Encoding` header: a cached `tools/list` goes gzipped to a client that takes gzip. */
  readonly acceptEncoding: string | undefined
}

// The stateless revision puts the version in `_meta`; early drafts called the key plain `protocolVersion`.
const metaVersionOf = (params: Readonly<Record<string, unknown>>): unknown => {
  const meta = params._meta
  return isJsonObject(meta) ? (meta[META_PROTOCOL_VERSION] ?? meta.protocolVersion) : undefined
}

// The stateless revision marks every finished result with resultType "complete" and names the server in `_meta`.
const statelessMeta = { [META_SERVER_INFO]: serverInfo }
const complete = (result: object, stateless: boolean): string =>
  JSON.stringify(stateless ? { ...result, resultType: "complete", _meta: statelessMeta } : result)

// The same, spliced into a tool call's result after `structuredContent`.
const STATELESS_CALL_FIELDS = `,"resultType":"complete","_meta":${JSON.stringify(statelessMeta)}`

/** Answers MCP requests: lifecycle (`initialize`, `server/discover`, `ping`) and tools. */
export const makeMcpDispatch = (gate: ToolGate) =>
  Effect.gen(function* () {
    const tools = yield* ToolServer
    const encodeToolList = makeToolListEncoder()

    // The instructions name what the caller is served, so they are made per served list: the registry hands out the
    // same array for equal grants and selections, and a repeat is a lookup. Only the date line is made per answer.
    const instructionTexts = new WeakMap<ReadonlyArray<ListedTool>, string>()
    const instructionsFor = (served: ReadonlyArray<ListedTool>): Effect.Effect<string> => {
      let text = instructionTexts.get(served)
      if (text === undefined) {
        text = serverInstructions(served)
        instructionTexts.set(served, text)
      }
      const known = text
      return Effect.map(Clock.currentTimeMillis, (now) => instructionsAt(known, now))
    }

    const discoveryResult = (instructions: string, stateless: boolean): string => {
      const discovery = { supportedVersions: SUPPORTED_VERSIONS, capabilities: serverCapabilities, instructions }
      // Earlier drafts put serverInfo in the result itself; 2026-07-28 moved it to `_meta`.
      return stateless
        ? complete({ ...discovery, ...cacheableFields }, true)
        : complete({ ...discovery, serverInfo }, false)
    }

    // A client asking for a revision we do not speak gets our newest; it then decides whether to go on.
    const initializeResult = (requested: unknown, instructions: string): string =>
      complete(
        {
          protocolVersion: HANDSHAKE_VERSIONS.find((known) => known === requested) ?? HANDSHAKE_VERSIONS[0],
          capabilities: serverCapabilities,
          serverInfo,
          instructions
        },
        false
      )

    const invalidParams = (id: RequestId, message: string): Reply =>
      errorReply(200, id, ErrorCode.InvalidParams, message)

    // Every refusal of the tool server: an unknown name before anything else (a typo never uses up the minute),
    // an OAuth token lacking the write scope at the HTTP level (so the client can step up), then the rate limit.
    const refusalReply = (id: RequestId, refused: ToolRefusal): Reply => {
      switch (refused._tag) {
        case "UnknownTool":
          return invalidParams(id, `no tool named ${excerpt(refused.tool)}; call tools/list for the names`)
        case "InsufficientScope":
          return errorReply(403, id, ErrorCode.ServerError, refused.message, {
            headers: { "www-authenticate": gate.scopeChallenge(refused) }
          })
        case "RateLimited":
          return errorReply(429, id, ErrorCode.ServerError, refused.message, {
            data: { retryAfterSeconds: refused.retryAfterSeconds },
            headers: { "retry-after": String(refused.retryAfterSeconds) }
          })
      }
    }

    const callTool = (request: McpRequest, stateless: boolean): Effect.Effect<Reply> => {
      const { id, params, principal, selection } = request
      const name = params.name
      if (typeof name !== "string" || name.length === 0) {
        return Effect.succeed(invalidParams(id, "params.name must be the name of a tool from tools/list"))
      }
      // One `match` rather than `map` and `catchAll` (two run-loop steps fewer on every call), with one failure
      // handler rather than `catchTags`: see `failureReply` in endpoint.ts.
      return Effect.match(tools.call(principal, name, params.arguments, selection), {
        onSuccess: (answer) => {
          const text = JSON.stringify(answer)
          const flags = `${answer.ok === false ? ',"isError":true' : ""}${stateless ? STATELESS_CALL_FIELDS : ""}`
          return resultReply(
            id,
            `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}${flags}}`,
            name
          )
        },
        // An unknown name keeps the endpoint's route: a label is never made from what a caller typed.
        onFailure: (refused) =>
          refused._tag === "UnknownTool" ? refusalReply(id, refused) : { ...refusalReply(id, refused), route: name }
      })
    }

    /** The reply to one request; only `tools/call` does any work beyond a cached lookup. */
    return (request: McpRequest): Effect.Effect<Reply> => {
      const { id, method, params, headerVersion } = request
      const metaVersion = metaVersionOf(params)
      if (metaVersion !== undefined && typeof metaVersion !== "string") {
        return Effect.succeed(invalidParams(id, `_meta["${META_PROTOCOL_VERSION}"] must be a protocol version string`))
      }
      if (metaVersion !== undefined && !isSupportedVersion(metaVersion)) {
        return Effect.succeed(unsupportedVersionReply(id, metaVersion))
      }
      if (metaVersion !== undefined && headerVersion !== undefined && metaVersion !== headerVersion) {
        return Effect.succeed(
          errorReply(
            400,
            id,
            ErrorCode.HeaderMismatch,
            `the MCP-Protocol-Version header (${headerVersion}) and _meta (${metaVersion}) name different versions`
          )
        )
      }
      const stateless = (metaVersion ?? headerVersion) === STATELESS_VERSION
      switch (method) {
        case "tools/call":
          return callTool(request, stateless)
        case "tools/list": {
          const list = encodeToolList(tools.list(request.principal, request.selection), stateless)
          return acceptsGzip(request.acceptEncoding)
            ? Effect.map(list.gzipAnswer(id), gzipAnswerReply)
            : Effect.succeed(resultBytesReply(id, list.json))
        }
        case "server/discover":
          return Effect.map(instructionsFor(tools.list(request.principal, request.selection)), (instructions) =>
            resultReply(id, discoveryResult(instructions, stateless))
          )
        case "initialize":
        case "ping":
          if (stateless) {
            return Effect.succeed(
              errorReply(
                200,
                id,
                ErrorCode.MethodNotFound,
                `${excerpt(method)} is not part of ${STATELESS_VERSION}; call server/discover`
              )
            )
          }
          if (method === "ping") return Effect.succeed(resultReply(id, "{}"))
          return Effect.map(instructionsFor(tools.list(request.principal, request.selection)), (instructions) =>
            resultReply(id, initializeResult(params.protocolVersion, instructions))
          )
        default:
          return Effect.succeed(errorReply(200, id, ErrorCode.MethodNotFound, `no method ${excerpt(method)}`))
      }
    }
  })
