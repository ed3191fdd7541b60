import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import { RouteContext } from "@effect/platform/HttpRouter"
import { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import { Effect } from "effect"

// The route pattern each routed request took, by the request the HTTP server received (the platform request's
// `source`): the server, which sees the answer leave, reads it there. Weak, so a request gone is an entry gone.
const routes = new WeakMap<object, string>()

/** The route pattern the router took `source` (a server's own request object) to; `undefined` when none did. */
export const routeOf = (source: object): string | undefined => routes.get(source)

/**
 * Router middleware that notes each request's route pattern (`/s/:handle/posts/:postId`, never the path with its
 * ids) for the request metrics. Give it to the route layers whose requests are measured.
 */
export const RouteLabelsLive = HttpLayerRouter.middleware((effect) =>
  Effect.flatMap(Effect.all([HttpServerRequest, RouteContext]), ([request, context]) => {
    const source = request.source
    if (typeof source === "object" && source !== null) routes.set(source, context.route.path)
    return effect
  })
).layer
