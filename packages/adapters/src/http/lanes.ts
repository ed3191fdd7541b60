import type { IncomingMessage, ServerResponse } from "node:http"
import type { Authenticator, ToolServer } from "@svc/core"
import { Context, Effect, Exit, type Fiber, FiberId, Layer } from "effect"
import { declaresTooLarge, readNodeBodyThen } from "./body.js"
import { HttpFaceSettings, type PublicUrl } from "./config.js"
import { type FaceRequest, nodeFaceRequest, type Reply, writeReply } from "./exchange.js"
import { makeMcpEndpoint } from "./mcp/endpoint.js"
import { makeRestToolEndpoint } from "./rest/endpoint.js"
import { untrackedRunFork } from "../untracked-fibers.js"

/**
 * Takes a Node request when it is one of the tool calls (`/mcp`, `POST /v1/tools/<name>`) and answers it;
 * answers `false`, touching nothing, for every other request (the platform's router serves those).
 */
export type ToolLane = (request: IncomingMessage, response: ServerResponse) => boolean

/** The server's `node:http` lane for tool calls. */
export class ToolLanes extends Context.Tag("svc/http/ToolLanes")<ToolLanes, ToolLane>() {}

const TOOLS_PREFIX = "/v1/tools/"

// A tool name as the router would take it from the path; anything odd (a slash, bad escapes) is left to the
// router, which answers it as it answers every other path.
const toolNameOf = (path: string): string | undefined => {
  const raw = path.slice(TOOLS_PREFIX.length)
  if (raw.length === 0 || raw.includes("/")) return undefined
  if (!raw.includes("%")) return raw
  try {
    return decodeURIComponent(raw)
  } catch {
    return undefined
  }
}

/**
 * The lane runs the very endpoints the platform routes run (`McpRoutes`, `RestToolRoutes`), straight from
 * `node:http`. Tool calls are nearly all of the traffic, and the platform's per-request work (its request and
 * response objects, router, middleware and the fiber context they build) was about an eighth of a cached tool
 * call's CPU in the bench profiles; the lane starts one fiber per call and writes the reply once.
 */
export const ToolLanesLive: Layer.Layer<ToolLanes, never, ToolServer | Authenticator | PublicUrl | HttpFaceSettings> =
  Layer.effect(
    ToolLanes,
    Effect.gen(function* () {
      const mcp = yield* makeMcpEndpoint
      const rest = yield* makeRestToolEndpoint
      const { maxBodyBytes } = yield* HttpFaceSettings
      // One fiber per call, short-lived: kept out of Effect's root set (see untracked-fibers.ts).
      const runFork = untrackedRunFork(yield* Effect.runtime<never>())

      // The body is read before the endpoint's fiber starts, with plain stream callbacks, so the fiber runs from
      // start to answer without waiting on the socket. The endpoint still decides what a body error means, after
      // its header and credential checks, so the answers are the same as the router's. One `close` listener per
      // call serves both stages: it stops the body read, or interrupts the fiber when the client went away first.
      const afterBody = (
        request: IncomingMessage,
        response: ServerResponse,
        answer: (face: FaceRequest) => Effect.Effect<Reply>
      ): void => {
        let fiber: Fiber.RuntimeFiber<Reply> | undefined
        let stopReading: (() => void) | undefined
        response.once("close", () => {
          stopReading?.()
          if (fiber !== undefined && !response.writableEnded) fiber.unsafeInterruptAsFork(FiberId.none)
        })
        const run = (face: FaceRequest): void => {
          fiber = runFork(answer(face))
          fiber.addObserver((exit) => {
            // Interrupted means the client went away: there is nobody to answer. Defects were answered already.
            if (Exit.isSuccess(exit) && !response.destroyed) writeReply(response, exit.value)
          })
        }
        // A body announced as too long is refused by the endpoint without reading it.
        if (declaresTooLarge(request.headers["content-length"], maxBodyBytes)) {
          run(nodeFaceRequest(request))
          return
        }
        stopReading = readNodeBodyThen(request, maxBodyBytes, (body) => run(nodeFaceRequest(request, body)))
      }

      return (request, response) => {
        const url = request.url ?? ""
        const query = url.indexOf("?")
        const path = query === -1 ? url : url.slice(0, query)
        if (path === "/mcp") {
          afterBody(request, response, mcp)
          return true
        }
        if (request.method !== "POST" || !path.startsWith(TOOLS_PREFIX)) return false
        const name = toolNameOf(path)
        if (name === undefined) return false
        afterBody(request, response, (face) => rest(name, face))
        return true
      }
    })
  )
