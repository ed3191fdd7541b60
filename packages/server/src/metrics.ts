/**
 * `GET /metrics` in the Prometheus text format (docs/metrics.md). Every metric is an Effect `Metric` in the global
 * registry, defined next to what it measures; `@effect/opentelemetry` reads that registry into the OpenTelemetry
 * Prometheus exporter (a metric reader whose own port is never opened), and its serializer writes the answer. The
 * gauges that describe state (work queues, the database pool, the event loop) are read just before each scrape.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"
import * as Metrics from "@effect/opentelemetry/Metrics"
import * as Resource from "@effect/opentelemetry/Resource"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus"
import { DatabasePool, WorkQueueGaugesSql } from "@svc/adapters/sql"
import { refreshWorkQueueGauges, WorkQueueGauges } from "@svc/core/observability"
import { Context, Effect, Layer, Option, Redacted, Runtime } from "effect"
import { type ListenAddress, type MetricsSettings, metricsServed } from "./metrics-config.js"
import { eventLoopDelayGauges, setPoolGauges } from "./metrics-runtime.js"

/** The Prometheus text format's media type. */
export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

/** Answers the whole registry as Prometheus text, after reading the gauges of the moment. */
export class MetricsScrape extends Context.Tag("svc/server/MetricsScrape")<
  MetricsScrape,
  { readonly scrape: Effect.Effect<string> }
>() {}

/**
 * The exporter over Effect's registry, and the scrape. A gauge that cannot be read (the database down) is left at
 * its last value and logged; the scrape still answers, so the counters stay visible when they matter most.
 */
const MetricsScrapeLive = Layer.scoped(
  MetricsScrape,
  Effect.gen(function* () {
    const exporter = new PrometheusExporter({ preventServerStart: true })
    const producer = yield* Metrics.makeProducer.pipe(Effect.provide(Resource.layer({ serviceName: "svc" })))
    // As `Metrics.registerProducer` does, through the reader's public `setMetricProducer`: the exporter brings its own
    // copy of `@opentelemetry/sdk-metrics` (it pins one exact version), whose `MetricReader` class is not the type
    // that function names, while `MetricProducer` is an interface both copies agree on.
    yield* Effect.acquireRelease(
      Effect.sync(() => exporter.setMetricProducer(producer)),
      () => Effect.promise(() => exporter.shutdown()).pipe(Effect.timeoutOption("3 seconds"))
    )
    // No scope label on every series (one scope, Effect's); `target_info` names the service.
    const serializer = new PrometheusSerializer(undefined, false, undefined, false, true)
    const queues = yield* Effect.serviceOption(WorkQueueGauges)
    const pool = yield* Effect.serviceOption(DatabasePool)
    const eventLoop = yield* eventLoopDelayGauges

    const refresh = Effect.all(
      [
        Option.match(queues, {
          onNone: () => Effect.void,
          onSome: (gauges) => Effect.provideService(refreshWorkQueueGauges, WorkQueueGauges, gauges)
        }),
        Option.match(pool, { onNone: () => Effect.void, onSome: (reader) => setPoolGauges(reader.read()) }),
        eventLoop
      ],
      { discard: true, concurrency: "unbounded" }
    ).pipe(Effect.catchAllCause((cause) => Effect.logWarning("metrics: a gauge could not be read", cause)))

    return {
      scrape: Effect.zipRight(
        refresh,
        Effect.map(
          Effect.promise(() => exporter.collect()),
          ({ resourceMetrics }) => serializer.serialize(resourceMetrics)
        )
      )
    }
  })
).pipe(Layer.provide(WorkQueueGaugesSql))

/** Compares a presented bearer token with the configured one in constant time (both hashed to one length). */
const tokenCheck = (token: Option.Option<Redacted.Redacted>) => {
  if (Option.isNone(token)) return (_authorization: string | undefined) => true
  const expected = createHash("sha256").update(Redacted.value(token.value)).digest()
  return (authorization: string | undefined): boolean => {
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1]
    if (presented === undefined) return false
    return timingSafeEqual(createHash("sha256").update(presented).digest(), expected)
  }
}

const CHALLENGE = { "www-authenticate": 'Bearer realm="metrics"' }
const UNAUTHORIZED_BODY = "a bearer token is required: Authorization: Bearer <SVC_METRICS_TOKEN>\n"

/** `GET /metrics` on the public port's router, for a caller with the token. */
const metricsRoute = (settings: MetricsSettings) =>
  HttpLayerRouter.use((router) =>
    Effect.gen(function* () {
      const { scrape } = yield* MetricsScrape
      const authorized = tokenCheck(settings.token)
      yield* router.add("GET", "/metrics", (request) =>
        authorized(request.headers.authorization)
          ? Effect.map(scrape, (text) => HttpServerResponse.text(text, { contentType: METRICS_CONTENT_TYPE }))
          : Effect.succeed(HttpServerResponse.text(UNAUTHORIZED_BODY, { status: 401, headers: CHALLENGE }))
      )
    })
  )

/** A `node:http` listener of its own on `address` that serves only `GET /metrics`; closed with the scope. */
const metricsListener = (address: ListenAddress, settings: MetricsSettings) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const { scrape } = yield* MetricsScrape
      const runtime = yield* Effect.runtime<never>()
      const runScrape = Runtime.runPromise(runtime)
      const authorized = tokenCheck(settings.token)
      const server = createServer((request, response) => {
        const path = (request.url ?? "").split("?")[0]
        if (path !== "/metrics") {
          response.writeHead(404, { "content-type": "text/plain" }).end("only /metrics is served here\n")
          return
        }
        if (request.method !== "GET" && request.method !== "HEAD") {
          response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end()
          return
        }
        if (!authorized(request.headers.authorization)) {
          response.writeHead(401, { ...CHALLENGE, "content-type": "text/plain" }).end(UNAUTHORIZED_BODY)
          return
        }
        runScrape(scrape).then(
          (text) => response.writeHead(200, { "content-type": METRICS_CONTENT_TYPE }).end(text),
          () => response.writeHead(500, { "content-type": "text/plain" }).end("the metrics could not be read\n")
        )
      })
      yield* Effect.acquireRelease(
        Effect.async<void, Error>((resume) => {
          const failed = (error: Error) => resume(Effect.fail(error))
          server.once("error", failed)
          server.listen(address.port, address.host, () => {
            server.off("error", failed)
            resume(Effect.void)
          })
        }),
        () => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
      ).pipe(Effect.orDie)
      const bound = server.address()
      const port = typeof bound === "object" && bound !== null ? bound.port : address.port
      const host = address.host.includes(":") ? `[${address.host}]` : address.host
      yield* Effect.logInfo(`metrics on http://${host}:${port}/metrics`)
    })
  )

/**
 * `/metrics` as `settings` say: on the public port's router with the token, on a listener of its own, both, or
 * neither (nothing is built then). Needs the router and, for the work queues and the pool, the database.
 */
export const metricsLayer = (settings: MetricsSettings) => {
  if (!metricsServed(settings)) return Layer.empty
  const onPublicPort = Option.isSome(settings.token) ? metricsRoute(settings) : Layer.empty
  const ownListener = Option.match(settings.listen, {
    onNone: () => Layer.empty,
    onSome: (address) => metricsListener(address, settings)
  })
  return Layer.merge(onPublicPort, ownListener).pipe(Layer.provide(MetricsScrapeLive))
}
