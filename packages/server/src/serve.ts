import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { HttpSenderLive } from "@svc/adapters/http-sender"
import { lanedServerLayer, RouteLabelsLive, ToolFacesLive, ToolLanesLive } from "@svc/adapters/http"
import { Effect, Layer } from "effect"
import { AdminSocketLive } from "./admin-socket.js"
import { parsePublicUrl, routedPath } from "./base-path.js"
import { bootstrapDemoOwner } from "./bootstrap.js"
import { publicBase, ServerConfig } from "./config.js"
import { AppLive } from "./runtime.js"
import { faceSettingsLayer } from "./face-settings.js"
import { metricsServed } from "./metrics-config.js"
import { TracingConfig, withTracing } from "./tracing.js"
import { workersLayer, workersOf } from "./workers.js"

/** Settings of the HTTP faces from the server configuration. */
const FaceSettingsLive = Layer.unwrapEffect(
  Effect.map(ServerConfig, (config) =>
    faceSettingsLayer(config, {
      publicUrl: publicBase(config),
      authUrl: config.authUrl._tag === "Some" ? config.authUrl.value.href : publicBase(config)
    })
  )
)

/** Prints the start-up banner and, on an empty database, creates the demo owner. */
const StartupLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const base = publicBase(config)
    if (config.bootstrap) yield* bootstrapDemoOwner(base)
    yield* Effect.logInfo(`svc listening on http://${config.host}:${config.port} (public URL ${base})`)
  })
)

/**
 * The core plus the SSRF-safe sender that webhook deliveries and test sends go out through (with the app's
 * `OutboundSettings`). Given once to everything that runs on it (`ServedLive`): one core, one database.
 */
const ServedAppLive = HttpSenderLive.pipe(Layer.provideMerge(AppLive))

/** Background work: the workers `workersOf` switches on from the environment (`workers.ts`). */
const WorkersLive = Layer.unwrapEffect(Effect.map(ServerConfig, (config) => workersLayer(config, workersOf(config))))

/**
 * `GET /metrics` where `SVC_METRICS_TOKEN` and `SVC_METRICS_LISTEN` say (metrics.ts). Its module is loaded only then:
 * a server that serves no metrics, and a backend embedding svc, never load the OpenTelemetry exporter.
 */
const MetricsLive = Layer.unwrapEffect(
  Effect.flatMap(ServerConfig, (config) =>
    metricsServed(config.metrics)
      ? Effect.map(
          Effect.promise(() => import("./metrics.js")),
          ({ metricsLayer }) => metricsLayer(config.metrics)
        )
      : Effect.succeed(Layer.empty)
  )
)

/**
 * Everything that runs on the app, given it once: the faces (their routes on one router, each noting its route
 * pattern for the request metrics), `/metrics`, the tool lanes, the start-up work, the workers and the admin socket.
 * Out of it come only the router and the lanes, so what is built on it (the HTTP server) holds neither the core nor
 * the face settings.
 */
const ServedLive = Layer.mergeAll(
  Layer.merge(ToolFacesLive, MetricsLive).pipe(
    Layer.provide(RouteLabelsLive),
    Layer.provideMerge(HttpLayerRouter.layer)
  ),
  ToolLanesLive,
  StartupLive,
  WorkersLive,
  AdminSocketLive
).pipe(Layer.provide(FaceSettingsLive), Layer.provide(ServedAppLive))

/**
 * The router under `PUBLIC_URL`'s path (`https://example.com/svc`): a request under it goes in with the path taken off
 * (base-path.ts), OAuth discovery with the path after the well-known name too. Any other path goes in unchanged, as a
 * proxy that takes the prefix off itself sends it.
 */
const underBasePath = <E, R>(basePath: string, app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  basePath === ""
    ? app
    : Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const query = request.url.indexOf("?")
        const path = query === -1 ? request.url : request.url.slice(0, query)
        const routed = routedPath(basePath, path)
        if (routed === undefined || routed === path) return app
        const url = query === -1 ? routed : `${routed}${request.url.slice(query)}`
        return Effect.provideService(app, HttpServerRequest.HttpServerRequest, request.modify({ url }))
      })

/**
 * Serves the router on the HTTP server, with no log line per request: at thousands of calls a second it costs more
 * than the call (defects still log).
 */
const ServeRouterLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const router = yield* HttpLayerRouter.HttpRouter
    const { basePath } = parsePublicUrl(publicBase(yield* ServerConfig))
    return yield* HttpServer.serveEffect(underBasePath(basePath, router.asHttpEffect()))
  })
).pipe(HttpServer.withLogAddress)

/**
 * The whole server: every face on one router, the core, storage, and the start-up work.
 *
 * The core and the face settings are given to the faces, the lanes and the start-up work (`ServedLive`), not to the
 * HTTP server itself: each request's fiber starts from the server's context, and Effect copies that context whenever
 * a request adds to it (the request, its scope, its route, ...). With the whole core in it, those copies were a large
 * part of every tool call's CPU and memory (bench CPU and allocation profiles). The faces take their services when
 * they are built; their type says no handler reads one from a request's context. `ServedLive` is provided, not
 * merged, and built before the port opens, so the first request finds the start-up work done (and, on an embedded
 * directory, the admin socket open).
 */
export const ServerLive = Layer.unwrapEffect(
  Effect.map(Effect.zip(ServerConfig, TracingConfig), ([config, tracing]) => {
    const http = Layer.merge(
      lanedServerLayer({ host: config.host, port: config.port }, config.httpTimeouts, config.drain),
      NodeHttpServer.layerContext
    )
    const server = ServeRouterLive.pipe(Layer.provide(http), Layer.provide(ServedLive))
    // The one place tracing is decided: OTLP export when an endpoint is configured, else the tracer off.
    return withTracing(server, tracing)
  })
)

/** Starts the server and keeps it up until SIGINT or SIGTERM, then closes it cleanly. */
export const runServer = () => {
  NodeRuntime.runMain(Layer.launch(ServerLive).pipe(Effect.tapErrorCause(Effect.logError)), {
    disableErrorReporting: true
  })
}
