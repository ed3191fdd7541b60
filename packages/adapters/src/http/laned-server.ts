import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import * as HttpServer from "@effect/platform/HttpServer"
import type * as HttpServerError from "@effect/platform/HttpServerError"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer } from "effect"
import { DEFAULT_DRAIN, type DrainSettings, makeDrain } from "./drain.js"
import { ToolLanes } from "./lanes.js"
import { faceOf, makeRequestRecorder, UNMATCHED_ROUTE } from "./metrics/requests.js"
import { routeOf } from "./metrics/route-labels.js"
import {
  DEFAULT_HTTP_TIMEOUTS,
  guardBodyIdle,
  guardRequestDeadline,
  type HttpTimeouts,
  serverTimeoutOptions
} from "./timeouts.js"

const notServing = (_request: IncomingMessage, response: ServerResponse): void => {
  response.writeHead(503, { "content-type": "application/json", "retry-after": "1" })
  response.end(JSON.stringify({ ok: false, error: "unavailable", message: "the server is starting or stopping" }))
}

/**
 * Measures each request the platform's router answers, when its answer has been written: by the route pattern the
 * router took (`RouteLabelsLive`), or as unmatched under the face its path names.
 */
const measured = (
  serve: (request: IncomingMessage, response: ServerResponse) => void
): ((request: IncomingMessage, response: ServerResponse) => void) => {
  const record = makeRequestRecorder()
  return (request, response) => {
    const arrived = performance.now()
    response.once("finish", () => {
      const route = routeOf(request)
      const face = faceOf(route ?? request.url ?? "")
      record(face, route ?? UNMATCHED_ROUTE, response.statusCode, (performance.now() - arrived) / 1000)
    })
    serve(request, response)
  }
}

/**
 * The HTTP server: `node:http` with the tool lane (`ToolLanes`) in front of the platform's router. Tool calls
 * go straight to their endpoint; every other request goes to whatever app is served through the platform's
 * `HttpServer` (the router of every face). Listening and closing are the platform's own (`NodeHttpServer.make`).
 * Both share one `node:http` server, so `timeouts` (header, whole-request and body-idle deadlines) hold for every
 * face alike.
 *
 * Every answered request is counted and timed (`metrics/requests.ts`): the lane's by tool name, the router's by route
 * pattern. It answers `GET /ready` itself, and stops by draining (`drain.ts`): when what it serves is taken off it (the first
 * thing released when the process stops), it says "not ready", closes the listener and waits for the requests in
 * flight, before the app under them (workers, database) is closed.
 */
export const lanedServerLayer = (
  listen: {
    readonly host: string
    readonly port: number
  },
  timeouts: HttpTimeouts = DEFAULT_HTTP_TIMEOUTS,
  drainSettings: DrainSettings = DEFAULT_DRAIN
): Layer.Layer<HttpServer.HttpServer, HttpServerError.ServeError, ToolLanes> =>
  Layer.scoped(
    HttpServer.HttpServer,
    Effect.gen(function* () {
      const lane = yield* ToolLanes
      const drain = makeDrain(drainSettings)
      let platform = notServing
      const platformMeasured = measured((request, response) => platform(request, response))
      const server = createServer(serverTimeoutOptions(timeouts), (request, response) => {
        if (drain.track(request, response)) return
        guardBodyIdle(request, response, timeouts.bodyIdleMs)
        guardRequestDeadline(request, timeouts)
        if (!lane(request, response)) platformMeasured(request, response)
      })
      const listening = yield* NodeHttpServer.make(() => server, listen)
      return HttpServer.make({
        address: listening.address,
        serve: (app, middleware) =>
          Effect.gen(function* () {
            const handler = yield* middleware === undefined
              ? NodeHttpServer.makeHandler(app)
              : NodeHttpServer.makeHandler(app, middleware)
            platform = handler
            drain.served()
            // The app is served until the drain is over: requests already on their way are answered by it.
            yield* Effect.addFinalizer(() =>
              drain.drain(server).pipe(
                Effect.tap(({ inFlightAtClose, streamsClosed, cutOff }) =>
                  Effect.logInfo(
                    `stopped taking connections; ${inFlightAtClose} requests were in flight` +
                      (cutOff > 0 ? `, ${cutOff} cut off after ${drainSettings.timeoutMs} ms` : ", all answered") +
                      (streamsClosed > 0 ? `; ${streamsClosed} event streams closed` : "")
                  )
                ),
                Effect.ensuring(
                  Effect.sync(() => {
                    platform = notServing
                  })
                )
              )
            )
          })
      })
    })
  )
