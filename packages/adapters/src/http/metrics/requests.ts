import { Metric, MetricBoundaries, MetricLabel } from "effect"

/** Which face answered a request: the label that splits the request metrics first. */
export type Face = "mcp" | "rest" | "store-api" | "graphql" | "oauth" | "pages" | "other"

/** Every request answered, by face, route and status class. */
export const httpRequests = Metric.counter("svc_http_requests_total", {
  description:
    "HTTP requests answered, by face, route (the route pattern; the tool name for tool calls) and status class",
  incremental: true
})

/** Seconds from a request's arrival to its answer being written, by face, route and status class. */
export const httpRequestSeconds = Metric.histogram(
  "svc_http_request_duration_seconds",
  MetricBoundaries.fromIterable([0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]),
  "Seconds from an HTTP request's arrival until its answer was written, by face, route and status class"
)

/** The route label of a request no route took (a 404 of the router, or a request refused before routing). */
export const UNMATCHED_ROUTE = "unmatched"

// Longest prefixes first where one holds another.
const FACE_PREFIXES: ReadonlyArray<readonly [string, Face]> = [
  ["/mcp", "mcp"],
  ["/v1/", "rest"],
  ["/ai/", "rest"],
  ["/store-app/", "store-api"],
  ["/graphql", "graphql"],
  ["/oauth/", "oauth"],
  ["/.well-known/oauth", "oauth"],
  ["/s/", "pages"],
  ["/settings", "pages"],
  ["/connect/", "pages"],
  ["/u/", "pages"]
]

/** The face a route pattern (or, for an unmatched request, its path) belongs to. */
export const faceOf = (path: string): Face => {
  for (const [prefix, face] of FACE_PREFIXES) if (path.startsWith(prefix)) return face
  return "other"
}

/** `2xx`, `4xx`, ...: the status label, coarse so a route has at most five series. */
export const statusClassOf = (status: number): string => `${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx`

/** Records one answered request: its face, route, HTTP status and duration in seconds. */
export type RecordRequest = (face: Face, route: string, status: number, seconds: number) => void

/**
 * A {@link RecordRequest} that makes each label set once (per face, route and status class) and updates the
 * counter and the histogram synchronously with it: on the tool lane this runs on every call, so it allocates
 * nothing once a route was seen. `route` must come from a bounded set: a route pattern or a served tool's name,
 * never a raw path.
 */
export const makeRequestRecorder = (): RecordRequest => {
  const faces = new Map<Face, Map<string, Array<ReadonlyArray<MetricLabel.MetricLabel> | undefined>>>()
  return (face, route, status, seconds) => {
    let routes = faces.get(face)
    if (routes === undefined) {
      routes = new Map()
      faces.set(face, routes)
    }
    let classes = routes.get(route)
    if (classes === undefined) {
      classes = []
      routes.set(route, classes)
    }
    const index = Math.min(5, Math.max(1, Math.floor(status / 100)))
    let labels = classes[index]
    if (labels === undefined) {
      labels = [
        MetricLabel.make("face", face),
        MetricLabel.make("route", route),
        MetricLabel.make("status_class", statusClassOf(status))
      ]
      classes[index] = labels
    }
    // The same label array each time: Effect caches the series it names by the array itself.
    httpRequests.unsafeUpdate(1, labels)
    httpRequestSeconds.unsafeUpdate(seconds, labels)
  }
}
