import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { Effect } from "effect"

/**
 * How the HTTP server stops: how long it says it is not ready before it stops taking connections, and how long it
 * then waits for the requests in flight.
 */
export interface DrainSettings {
  /**
   * From the stop signal to closing the listener, `GET /ready` answers 503 while every request is still served, so
   * a load balancer's health check takes the instance out first (set it to the check's interval times its fall count).
   */
  readonly delayMs: number
  /** After the listener is closed, the longest wait for requests in flight; those still running are then cut off. */
  readonly timeoutMs: number
}

/** The defaults: no delay (nothing in front to tell), and 30 s for requests in flight (the request deadline's default). */
export const DEFAULT_DRAIN: DrainSettings = { delayMs: 0, timeoutMs: 30_000 }

/**
 * The requests a `node:http` server is answering, its readiness, and its drain. `GET /ready` answers 200 from the
 * moment the app is served until the drain starts, and 503 before and after; `/health` (a route like any other)
 * keeps answering 200. A drain says "not ready", waits `delayMs`, closes the listener (Node also closes idle
 * keep-alive connections then), answers what is already in flight with `Connection: close` until none is left or
 * `timeoutMs` passes, and then cuts off the rest. Event streams are closed when the listener is: they would never
 * finish.
 */
export const makeDrain = (settings: DrainSettings) => {
  let serving = false
  let draining = false
  let inFlight = 0
  const open = new Set<ServerResponse>()
  const waiting = new Set<() => void>()

  const settled = () => {
    for (const resume of waiting) resume()
    waiting.clear()
  }

  /** Counts a request until its response closes; answers `/ready` itself. Returns true when it answered. */
  const track = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (
      (request.method === "GET" || request.method === "HEAD") &&
      (request.url === "/ready" || request.url?.startsWith("/ready?"))
    ) {
      const ready = serving && !draining
      const body = ready
        ? { ok: true, ready: true }
        : {
            ok: false,
            ready: false,
            message: draining
              ? "the server is stopping: send new requests to another instance"
              : "the server is starting"
          }
      response.writeHead(ready ? 200 : 503, { "content-type": "application/json", "cache-control": "no-store" })
      response.end(request.method === "HEAD" ? undefined : JSON.stringify(body))
      return true
    }
    inFlight++
    open.add(response)
    if (draining) response.setHeader("connection", "close")
    response.once("close", () => {
      inFlight--
      open.delete(response)
      if (inFlight === 0) settled()
    })
    return false
  }

  const nothingInFlight = Effect.async<void>((resume) => {
    if (inFlight === 0) return resume(Effect.void)
    const done = () => resume(Effect.void)
    waiting.add(done)
    return Effect.sync(() => waiting.delete(done))
  })

  /** Drains `server`; what the drain did, for the log. */
  const drain = (server: Server) =>
    Effect.gen(function* () {
      draining = true
      if (settings.delayMs > 0) yield* Effect.sleep(settings.delayMs)
      server.close()
      const inFlightAtClose = inFlight
      // An event stream (an MCP session's, a GraphQL subscription's) never finishes by itself: it is closed now, and
      // its client reconnects, to another instance.
      let streamsClosed = 0
      for (const response of open) {
        if (String(response.getHeader("content-type") ?? "").startsWith("text/event-stream")) {
          response.destroy()
          streamsClosed++
        }
      }
      // A drain runs as a finalizer, where nothing is interruptible: the wait is made so, or the timeout could not
      // stop it and a stuck request would hold the stop.
      const finished = yield* Effect.interruptible(nothingInFlight).pipe(
        Effect.timeoutTo({ duration: settings.timeoutMs, onSuccess: () => true, onTimeout: () => false })
      )
      const cutOff = finished ? 0 : inFlight
      if (!finished) server.closeAllConnections()
      return { inFlightAtClose: inFlightAtClose - streamsClosed, streamsClosed, cutOff }
    })

  /** Marks the app served: `/ready` answers 200 from now until the drain starts. */
  const served = () => {
    serving = true
  }

  return { track, drain, served }
}
