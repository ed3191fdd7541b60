/**
 * The request metrics' labels: the face a route belongs to, the status class, and a recorder that counts and times
 * each answered request under one series per face, route and class (docs/metrics.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Metric, MetricLabel } from "effect"
import {
  faceOf,
  httpRequestSeconds,
  httpRequests,
  makeRequestRecorder,
  statusClassOf
} from "../../src/http/metrics/requests.js"

const labels = (face: string, route: string, statusClass: string) => [
  MetricLabel.make("face", face),
  MetricLabel.make("route", route),
  MetricLabel.make("status_class", statusClass)
]

describe("request metrics", () => {
  it("names the face of every route pattern the faces serve", () => {
    expect(faceOf("/mcp")).toBe("mcp")
    expect(faceOf("/v1/tools/:name")).toBe("rest")
    expect(faceOf("/v1/media/uploads/:uploadId")).toBe("rest")
    expect(faceOf("/ai/zapier/ask")).toBe("rest")
    expect(faceOf("/store-app/v1/products/:id")).toBe("store-api")
    expect(faceOf("/graphql")).toBe("graphql")
    expect(faceOf("/oauth/token")).toBe("oauth")
    expect(faceOf("/.well-known/oauth-authorization-server")).toBe("oauth")
    expect(faceOf("/s/:handle/posts/:postId")).toBe("pages")
    expect(faceOf("/settings/keys")).toBe("pages")
    expect(faceOf("/connect/*")).toBe("pages")
    expect(faceOf("/u/*")).toBe("pages")
    expect(faceOf("/health")).toBe("other")
    expect(faceOf("/metrics")).toBe("other")
  })

  it("classes statuses by their hundreds", () => {
    expect([200, 204, 302, 404, 429, 500, 503].map(statusClassOf)).toEqual([
      "2xx",
      "2xx",
      "3xx",
      "4xx",
      "4xx",
      "5xx",
      "5xx"
    ])
  })

  it.effect("counts and times each request under its face, route and status class", () =>
    Effect.gen(function* () {
      const record = makeRequestRecorder()
      const ok = labels("rest", "svc_request_metrics_test", "2xx")
      const refused = labels("rest", "svc_request_metrics_test", "4xx")
      const before = yield* Metric.value(Metric.taggedWithLabels(httpRequests, ok))
      record("rest", "svc_request_metrics_test", 200, 0.004)
      record("rest", "svc_request_metrics_test", 201, 0.2)
      record("rest", "svc_request_metrics_test", 404, 0.001)
      const after = yield* Metric.value(Metric.taggedWithLabels(httpRequests, ok))
      expect(after.count - before.count).toBe(2)
      expect((yield* Metric.value(Metric.taggedWithLabels(httpRequests, refused))).count).toBe(1)

      const timed = yield* Metric.value(Metric.taggedWithLabels(httpRequestSeconds, ok))
      expect(timed.count).toBe(2)
      expect(timed.sum).toBeCloseTo(0.204, 6)
      // Cumulative buckets: the 4 ms call is under 5 ms, both are under 250 ms.
      const bucket = (bound: number) => timed.buckets.find(([boundary]) => boundary === bound)?.[1]
      expect(bucket(0.0025)).toBe(0)
      expect(bucket(0.005)).toBe(1)
      expect(bucket(0.1)).toBe(1)
      expect(bucket(0.25)).toBe(2)
    })
  )
})
