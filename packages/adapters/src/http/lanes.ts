import type { IncomingMessage, ServerResponse } from "node:http"
import * as Headers from "@effect/platform/Headers"
import * as HttpTraceContext from "@effect/platform/HttpTraceContext"
import type { Authenticator } from "@svc/core/auth"
import type { ToolServer } from "@svc/core/tools"
import { Context, Effect, Exit, FiberRef, Layer, Option, Runtime, type Tracer } from "effect"
import { declaresTooLarge, readNodeBodyThen } from "./body.js"
import { HttpFaceSettings, type PublicUrl } from "./config.js"
import { type FaceRequest, nodeFaceRequest, type Reply, writeReply } from "./exchange.js"
import { makeMcpEndpoint } from "./mcp/endpoint.js"
import { makeFiberPool, type PoolTask } from "../fiber-pool.js"
import { makeRestToolEndpoint } from "./rest/endpoint.js"
import { type Face, makeRequestRecorder } from "./metrics/requests.js"

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

/** The caller's span from a W3C `traceparent` (or B3) header, as the platform's router reads it. */
const callerSpan = (request: IncomingMessage): Tracer.ExternalSpan | undefined => {
  const headers = request.headers
  if (headers.traceparent === undefined && headers.b3 === undefined && headers["x-b3-traceid"] === undefined) {
    return undefined
  }
  return Option.getOrUndefined(HttpTraceContext.fromHeaders(Headers.fromInput(headers)))
}

/**
 * Runs `answer` in the HTTP server span the platform's router gives its requests
 * (same name and attributes), a child of the caller's span when the request carries one, so tool spans nest
 * under it. With the tracer off (no exporter) no span is made, as core's `withSpan` does.
 */
const inServerSpan = (
  request: IncomingMessage,
  path: string,
  route: string,
  answer: Effect.Effect<Reply>
): Effect.Effect<Reply> => {
  const traced = () => {
    const method = request.method ?? "GET"
    const userAgent = request.headers["user-agent"]
    return Effect.useSpan(
      `http.server ${method}`,
      {
        kind: "server",
        parent: callerSpan(request),
        captureStackTrace: false,
        attributes: {
          "http.request.method": method,
          "url.path": path,
          "url.scheme": "http",
          "http.route": route,
          ...(userAgent === undefined ? {} : { "user_agent.original": userAgent })
        }
      },
      (span) =>
        Effect.withParentSpan(
          Effect.map(answer, (reply) => {
            span.attribute("http.response.status_code", reply.status)
            return reply
          }),
          span
        )
    )
  }
  return Effect.withFiberRuntime((fiber) => (fiber.getFiberRef(FiberRef.currentTracerEnabled) ? traced() : answer))
}

/**
 * The lane runs the very endpoints the platform routes run (`McpRoutes`, `RestToolRoutes`), straight from
 * `node:http`. Tool calls are nearly all of the traffic, and the platform's per-request work (its request and
 * response objects, router, middleware and the fiber context they build) was about an eighth of a cached tool
 * call's CPU in the bench profiles; the lane runs each call on a pooled fiber (`fiber-pool.ts`) and writes the
 * reply once.
 */
export const ToolLanesLive: Layer.Layer<ToolLanes, never, ToolServer | Authenticator | PublicUrl | HttpFaceSettings> =
  Layer.effect(
    ToolLanes,
    Effect.gen(function* () {
      const mcp = yield* makeMcpEndpoint
      const rest = yield* makeRestToolEndpoint
      const { maxBodyBytes } = yield* HttpFaceSettings
      // The endpoints took their services when they were built and read none from a call's context, so calls run
      // with an empty one: the server span is added to it, and copying the layer's whole context (every core
      // service) for that on each call would be waste.
      const runtime = yield* Effect.runtime<never>()
      const runInPool = makeFiberPool(
        Runtime.make({ context: Context.empty(), runtimeFlags: runtime.runtimeFlags, fiberRefs: runtime.fiberRefs })
      )

      // Each answered call is counted and timed from its arrival, under the tool's name when the endpoint ran one.
      const record = makeRequestRecorder()

      // The body is read before the endpoint's fiber starts, with plain stream callbacks, so the fiber runs from
      // start to answer without waiting on the socket. The endpoint still decides what a body error means, after
      // its header and credential checks, so the answers are the same as the router's. One `close` listener per
      // call serves both stages: it stops the body read, or interrupts the fiber when the client went away first.
      const afterBody = (
        request: IncomingMessage,
        response: ServerResponse,
        path: string,
        face: Face,
        route: string,
        answer: (face: FaceRequest) => Effect.Effect<Reply>
      ): void => {
        const arrived = performance.now()
        let task: PoolTask | undefined
        let stopReading: (() => void) | undefined
        response.once("close", () => {
          stopReading?.()
          if (task !== undefined && !response.writableEnded) task.interrupt()
        })
        const run = (faceRequest: FaceRequest): void => {
          task = runInPool(inServerSpan(request, path, route, answer(faceRequest)), (exit) => {
            // Interrupted means the client went away: there is nobody to answer. Defects were answered already.
            if (Exit.isSuccess(exit) && !response.destroyed) {
              const reply = exit.value
              record(face, reply.route ?? route, reply.status, (performance.now() - arrived) / 1000)
              writeReply(response, reply)
            }
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
          afterBody(request, response, path, "mcp", "/mcp", mcp)
          return true
        }
        if (request.method !== "POST" || !path.startsWith(TOOLS_PREFIX)) return false
        const name = toolNameOf(path)
        if (name === undefined) return false
        afterBody(request, response, path, "rest", "/v1/tools/:name", (face) => rest(name, face))
        return true
      }
    })
  )
