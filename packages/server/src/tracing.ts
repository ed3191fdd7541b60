/**
 * Tracing, decided once at start-up from the standard OpenTelemetry environment: with an OTLP endpoint set, every
 * span (the HTTP server's, tool and store API calls, SQL, webhook deliveries, workers) goes out over OTLP/HTTP in
 * batches, flushed when the server stops; without one, the tracer is off and no span is made (`withSpan` in core). The
 * code that makes spans is the same either way.
 */
import * as OtlpSerialization from "@effect/opentelemetry/OtlpSerialization"
import * as OtlpTracer from "@effect/opentelemetry/OtlpTracer"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import { Config, ConfigError, Duration, Either, Layer, Option } from "effect"

/** Where and how spans are exported. */
export interface TracingSettings {
  /** The OTLP/HTTP traces URL (`…/v1/traces`). */
  readonly url: string
  readonly protocol: "http/protobuf" | "http/json"
  /** `service.name`; undefined when `OTEL_RESOURCE_ATTRIBUTES` names it. */
  readonly serviceName: string | undefined
  readonly headers: Readonly<Record<string, string>>
  /** How long spans wait before a batch goes out. */
  readonly exportInterval: Duration.Duration
}

const optionalString = (name: string) => Config.option(Config.string(name))

// OTEL_EXPORTER_OTLP_HEADERS: `key=value` pairs separated by commas, values percent-encoded.
const parseHeaders = (text: string): Either.Either<Record<string, string>, ConfigError.ConfigError> => {
  const headers: Record<string, string> = {}
  for (const pair of text.split(",")) {
    if (pair.trim() === "") continue
    const at = pair.indexOf("=")
    if (at <= 0) {
      return Either.left(ConfigError.InvalidData([], `OTEL_EXPORTER_OTLP_HEADERS: "${pair}" is not key=value`))
    }
    try {
      headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim())
    } catch {
      return Either.left(ConfigError.InvalidData([], `OTEL_EXPORTER_OTLP_HEADERS: "${pair}" has a bad escape`))
    }
  }
  return Either.right(headers)
}

const protocolOf = (name: string | undefined): Either.Either<TracingSettings["protocol"], ConfigError.ConfigError> =>
  name === undefined || name === "http/protobuf" || name === "http/json"
    ? Either.right(name ?? "http/protobuf")
    : Either.left(ConfigError.InvalidData([], `OTLP protocol ${name} is not served; use http/protobuf or http/json`))

/**
 * The export settings from the standard variables, none when no endpoint is set: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
 * (used as is) or `OTEL_EXPORTER_OTLP_ENDPOINT` (`/v1/traces` appended), `OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL`
 * (`http/protobuf` by default, or `http/json`), `OTEL_EXPORTER_OTLP_[TRACES_]HEADERS`, `OTEL_SERVICE_NAME` ("svc"
 * unless `OTEL_RESOURCE_ATTRIBUTES` names the service) and `OTEL_BSP_SCHEDULE_DELAY` (ms, 5000 by default).
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turn export off whatever the endpoint.
 */
export const TracingConfig: Config.Config<Option.Option<TracingSettings>> = Config.all({
  tracesEndpoint: optionalString("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
  endpoint: optionalString("OTEL_EXPORTER_OTLP_ENDPOINT"),
  tracesProtocol: optionalString("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"),
  generalProtocol: optionalString("OTEL_EXPORTER_OTLP_PROTOCOL"),
  tracesHeaders: optionalString("OTEL_EXPORTER_OTLP_TRACES_HEADERS"),
  headers: optionalString("OTEL_EXPORTER_OTLP_HEADERS"),
  serviceName: optionalString("OTEL_SERVICE_NAME"),
  resourceAttributes: optionalString("OTEL_RESOURCE_ATTRIBUTES"),
  sdkDisabled: Config.boolean("OTEL_SDK_DISABLED").pipe(Config.withDefault(false)),
  exporter: optionalString("OTEL_TRACES_EXPORTER"),
  delayMs: Config.integer("OTEL_BSP_SCHEDULE_DELAY").pipe(
    Config.withDefault(5000),
    Config.validate({ message: "OTEL_BSP_SCHEDULE_DELAY must be at least 1 (ms)", validation: (ms) => ms >= 1 })
  )
}).pipe(
  Config.mapOrFail((variables) => {
    const blank = (value: Option.Option<string>) => Option.filter(value, (text) => text.trim() !== "")
    const url = Option.orElse(blank(variables.tracesEndpoint), () =>
      Option.map(blank(variables.endpoint), (base) => `${base.replace(/\/+$/, "")}/v1/traces`)
    )
    const off = variables.sdkDisabled || Option.exists(variables.exporter, (name) => name.trim() === "none")
    if (Option.isNone(url) || off) return Either.right(Option.none())
    const protocolName = Option.getOrUndefined(
      Option.orElse(blank(variables.tracesProtocol), () => blank(variables.generalProtocol))
    )
    const headersText = Option.getOrElse(
      Option.orElse(blank(variables.tracesHeaders), () => blank(variables.headers)),
      () => ""
    )
    const namedByAttributes = Option.exists(variables.resourceAttributes, (text) =>
      /(^|,)\s*service\.name\s*=/.test(text)
    )
    return Either.all({ protocol: protocolOf(protocolName), headers: parseHeaders(headersText) }).pipe(
      Either.map(({ protocol, headers }) =>
        Option.some({
          url: url.value,
          protocol,
          serviceName: Option.getOrElse(blank(variables.serviceName), () => (namedByAttributes ? undefined : "svc")),
          headers,
          exportInterval: Duration.millis(variables.delayMs)
        })
      )
    )
  })
)

/** The OTLP tracer: spans batched and posted with `fetch`; the last batch is sent when the layer closes. */
export const otlpTracerLayer = (settings: TracingSettings): Layer.Layer<never> =>
  OtlpTracer.layer({
    url: settings.url,
    resource: { serviceName: settings.serviceName },
    headers: settings.headers,
    exportInterval: settings.exportInterval
  }).pipe(
    Layer.provide(settings.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
    Layer.provide(FetchHttpClient.layer)
  )

/**
 * `server` traced as `settings` say: with OTLP export, or with the tracer off. Off, the platform's HTTP middleware
 * is told so too, since it would otherwise parse the URL and redact headers for a span nobody receives.
 */
export const withTracing = <A, E, R>(
  server: Layer.Layer<A, E, R>,
  settings: Option.Option<TracingSettings>
): Layer.Layer<A, E, R> =>
  Option.match(settings, {
    onSome: (export_) => Layer.provide(server, otlpTracerLayer(export_)),
    onNone: () =>
      HttpMiddleware.withTracerDisabledWhen(server, () => true).pipe(Layer.provide(Layer.setTracerEnabled(false)))
  })
