/**
 * svc inside an app built with `@effect/platform`'s `HttpLayerRouter`: the app's own routes and svc's (`/mcp`,
 * `/v1/tools`, the store API, OAuth, `/health`) on one router, served by Node. No web handler in between: svc's
 * routes are layers like the app's.
 *
 *   PORT=3000 npx tsx examples/embed-effect-router.ts
 */
import { createServer } from "node:http"
import { HttpLayerRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Http } from "@svc/adapters"
import { Effect, Layer } from "effect"
import { announce, createOwnerKey, port, SvcCoreLive, SvcWorkersLive } from "./embedded-svc.js"

// The app's own routes.
const AppRoutes = HttpLayerRouter.addAll([
  HttpLayerRouter.route("GET", "/hello", HttpServerResponse.json({ hello: "from the Effect app" })),
  HttpLayerRouter.route(
    "POST",
    "/echo",
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => request.json).pipe(
      Effect.flatMap((body) => HttpServerResponse.json({ echoed: body })),
      Effect.catchTag("RequestError", () => HttpServerResponse.text("send a JSON body", { status: 400 }))
    )
  )
])

// svc's routes. The public URL (used in OAuth metadata and OpenAPI) is where the server listens unless
// PUBLIC_URL says otherwise. `SvcCoreLive` is one layer value, so these routes and `Announce` share one core.
const SvcRoutes = Http.ToolFacesLive.pipe(
  Layer.provide(
    Layer.unwrapEffect(
      HttpServer.addressFormattedWith((url) => Effect.succeed(Http.PublicUrl.layer(process.env.PUBLIC_URL ?? url)))
    )
  ),
  Layer.provide(Http.HttpFaceSettings.Default),
  Layer.provide(SvcCoreLive)
)

// Once the server listens: svc's background work (webhook deliveries, purges), a first API key, and the two
// start-up lines.
const Announce = Layer.effectDiscard(
  Effect.gen(function* () {
    const key = yield* createOwnerKey
    yield* HttpServer.addressFormattedWith((url) => Effect.sync(() => announce(url, key)))
  })
).pipe(Layer.merge(SvcWorkersLive), Layer.provide(SvcCoreLive))

// The port opens first (the HTTP server layer) and the routes are served once built; a request that came between
// would wait unanswered. So the key and the address are announced only after the routes are served: whoever reads
// them may call at once.
const Main = Announce.pipe(
  Layer.provide(
    HttpLayerRouter.serve(Layer.mergeAll(AppRoutes, SvcRoutes), { disableLogger: true, disableListenLog: true })
  ),
  Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" }))
)

// `runMain` closes everything on SIGTERM or SIGINT (the server, then the core and its database) and exits 0.
NodeRuntime.runMain(Layer.launch(Main))
