/** Tracing is configured by the standard OpenTelemetry variables, read once at start-up. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either, Option } from "effect"
import { TracingConfig } from "../src/tracing.js"

const read = (env: Record<string, string>) =>
  Effect.either(Effect.withConfigProvider(TracingConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("TracingConfig", () => {
  it.effect("is off without an endpoint, or when the SDK or the traces exporter is switched off", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toEqual(Either.right(Option.none()))
      expect(yield* read({ OTEL_SERVICE_NAME: "x", OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toEqual(
        Either.right(Option.none())
      )
      const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }
      expect(yield* read({ ...endpoint, OTEL_SDK_DISABLED: "true" })).toEqual(Either.right(Option.none()))
      expect(yield* read({ ...endpoint, OTEL_TRACES_EXPORTER: "none" })).toEqual(Either.right(Option.none()))
    })
  )

  it.effect("sends to <endpoint>/v1/traces, or to the traces endpoint as given, as protobuf by default", () =>
    Effect.gen(function* () {
      expect(yield* read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toEqual(
        Either.right(
          Option.some({
            url: "http://collector:4318/v1/traces",
            protocol: "http/protobuf",
            serviceName: "svc",
            headers: {},
            exportInterval: Duration.millis(5000)
          })
        )
      )
      const settings = yield* read({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/otlp",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/api/v1/spans",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_HEADERS: "x-team=svc, authorization=Bearer%20abc",
        OTEL_SERVICE_NAME: "svc-eu",
        OTEL_BSP_SCHEDULE_DELAY: "250"
      })
      expect(settings).toEqual(
        Either.right(
          Option.some({
            url: "https://traces.example/api/v1/spans",
            protocol: "http/json",
            serviceName: "svc-eu",
            headers: { "x-team": "svc", authorization: "Bearer abc" },
            exportInterval: Duration.millis(250)
          })
        )
      )
      const base = yield* read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/otlp" })
      expect(Option.map(Either.getOrThrow(base), (s) => s.url)).toEqual(
        Option.some("http://collector:4318/otlp/v1/traces")
      )
    })
  )

  it.effect("leaves the service name to OTEL_RESOURCE_ATTRIBUTES when it names one", () =>
    Effect.gen(function* () {
      const settings = yield* read({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod,service.name=billing"
      })
      expect(Option.map(Either.getOrThrow(settings), (s) => s.serviceName)).toEqual(Option.some(undefined))
    })
  )

  it.effect("refuses gRPC and malformed headers at start-up", () =>
    Effect.gen(function* () {
      const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4317" }
      expect(Either.isLeft(yield* read({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }))).toBe(true)
      expect(Either.isLeft(yield* read({ ...endpoint, OTEL_EXPORTER_OTLP_HEADERS: "novalue" }))).toBe(true)
      expect(Either.isLeft(yield* read({ ...endpoint, OTEL_BSP_SCHEDULE_DELAY: "0" }))).toBe(true)
    })
  )
})
