/** Where `/metrics` is served: `SVC_METRICS_TOKEN` and `SVC_METRICS_LISTEN`, read once at start-up (docs/metrics.md). */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { MetricsConfig, metricsServed, parseListenAddress } from "../src/metrics-config.js"

const read = (env: Record<string, string>) =>
  Effect.either(Effect.withConfigProvider(MetricsConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("MetricsConfig", () => {
  it.effect("serves /metrics nowhere unless a token or a listener is set", () =>
    Effect.gen(function* () {
      const none = yield* read({})
      expect(Either.isRight(none) && metricsServed(none.right)).toBe(false)
      const token = yield* read({ SVC_METRICS_TOKEN: "a-token-of-sixteen-plus" })
      expect(Either.map(token, (settings) => Option.map(settings.token, Redacted.value))).toEqual(
        Either.right(Option.some("a-token-of-sixteen-plus"))
      )
      expect(Either.isRight(token) && metricsServed(token.right)).toBe(true)
      const listen = yield* read({ SVC_METRICS_LISTEN: "0.0.0.0:9464" })
      expect(Either.map(listen, (settings) => settings.listen)).toEqual(
        Either.right(Option.some({ host: "0.0.0.0", port: 9464 }))
      )
    })
  )

  it.effect("refuses a short token and a listener that is not an address", () =>
    Effect.gen(function* () {
      expect(Either.isLeft(yield* read({ SVC_METRICS_TOKEN: "short" }))).toBe(true)
      const bad = yield* read({ SVC_METRICS_LISTEN: "http://127.0.0.1:9464" })
      expect(Either.isLeft(bad) && String(bad.left)).toMatch(/SVC_METRICS_LISTEN must be host:port/)
    })
  )

  it("reads host:port, [ipv6]:port and a bare port (on loopback)", () => {
    expect(parseListenAddress("127.0.0.1:9464")).toEqual(Either.right({ host: "127.0.0.1", port: 9464 }))
    expect(parseListenAddress("metrics.internal:9100")).toEqual(Either.right({ host: "metrics.internal", port: 9100 }))
    expect(parseListenAddress("[::1]:9464")).toEqual(Either.right({ host: "::1", port: 9464 }))
    expect(parseListenAddress("9464")).toEqual(Either.right({ host: "127.0.0.1", port: 9464 }))
    expect(parseListenAddress(":9464")).toEqual(Either.right({ host: "127.0.0.1", port: 9464 }))
    for (const bad of ["", "host:", "host:70000", "::1:9464", "a b:1"])
      expect(Either.isLeft(parseListenAddress(bad))).toBe(true)
  })
})
