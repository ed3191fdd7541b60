/**
 * `GET /metrics` of the real `svc serve` (docs/metrics.md): read with a Prometheus text-format parser, its counters
 * move by exactly the requests this test made (tool calls over REST and MCP, failing ones, rate-limited ones); it
 * asks for the bearer token on the public port and on its own listener, which serves nothing else.
 */
import { describe, expect, it } from "@effect/vitest"
import { createToolClient, ToolCallError, type ToolName } from "@svc/client"
import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format"
import { freePort } from "../bench/processes.js"
import { useServer } from "./support/server-fixture.js"

const TOKEN = "metrics-token-of-the-test-0123456789"
const metricsPort = await freePort()
const fixture = useServer({ SVC_METRICS_TOKEN: TOKEN, SVC_METRICS_LISTEN: `127.0.0.1:${metricsPort}` })

const bootstrapKey = () => /svc_pat_[0-9A-Za-z]{36}/.exec(fixture.server.output())?.[0] ?? ""
const listenerUrl = `http://127.0.0.1:${metricsPort}/metrics`

/** One scrape of the public port's `/metrics`, as text. */
const scrapeText = async (url = `${fixture.server.baseUrl}/metrics`): Promise<string> => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/)
  return response.text()
}

/** One scrape, parsed. */
const scrape = async (url?: string): Promise<ReadonlyArray<MetricFamily>> =>
  parsePrometheusTextFormat(await scrapeText(url))

/**
 * One histogram series, parsed. The parser folds a histogram's labelled series into one (it keeps labels only for
 * counters and gauges), so the series is cut out of the text first: the family's comment lines and its own samples,
 * ending with a newline as every scrape does (the parser drops a last line that has none).
 */
const histogramSeries = (text: string, family: string, labels: Readonly<Record<string, string>>) => {
  const written = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .join(",")
  const ownSample = (line: string) =>
    line.startsWith(`${family}_`) && (line.includes(`{${written},`) || line.includes(`{${written}}`))
  const lines = text
    .split("\n")
    .filter((line) => (line.startsWith("#") ? line.includes(` ${family} `) : ownSample(line)))
  const series = parsePrometheusTextFormat(`${lines.join("\n")}\n`).find((parsed) => parsed.name === family)
  expect(series?.type).toBe("HISTOGRAM")
  const only = series?.metrics[0]
  return only !== undefined && "buckets" in only ? only.buckets : {}
}

const sameLabels = (labels: Readonly<Record<string, string>> | undefined, wanted: Readonly<Record<string, string>>) =>
  Object.entries(wanted).every(([key, value]) => labels?.[key] === value)

/** A counter's or gauge's value for the series with `labels`; 0 when the series was never written. */
const sampleOf = (families: ReadonlyArray<MetricFamily>, name: string, labels: Readonly<Record<string, string>>) => {
  const series = families.find((family) => family.name === name)?.metrics.find((m) => sameLabels(m.labels, labels))
  return series === undefined ? 0 : Number("value" in series ? series.value : series.count)
}

const requests = (face: string, route: string, statusClass: string) => ({ face, route, status_class: statusClass })

/** A call's failure status, or `ok` when it succeeded. */
const outcome = (call: Promise<unknown>) =>
  call.then(
    () => "ok",
    (error: unknown) => (error instanceof ToolCallError ? error.status : `unexpected: ${String(error)}`)
  )

describe("GET /metrics", { timeout: 120_000 }, () => {
  it("asks for the bearer token, on the public port and on its own listener", async () => {
    for (const url of [`${fixture.server.baseUrl}/metrics`, listenerUrl]) {
      const missing = await fetch(url)
      expect(missing.status).toBe(401)
      expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="metrics"')
      const wrong = await fetch(url, { headers: { authorization: "Bearer not-the-metrics-token-at-all" } })
      expect(wrong.status).toBe(401)
    }
    // The listener serves the metrics and nothing else.
    expect((await fetch(`http://127.0.0.1:${metricsPort}/health`)).status).toBe(404)
    expect(sampleOf(await scrape(listenerUrl), "target_info", { service_name: "svc" })).toBe(1)
  })

  it("counts the tool calls made, by face and tool, their failures by status, and their latency", async () => {
    const rest = createToolClient({ baseUrl: fixture.server.baseUrl, token: bootstrapKey(), transport: "rest" })
    const mcp = createToolClient({ baseUrl: fixture.server.baseUrl, token: bootstrapKey(), transport: "mcp" })
    const before = await scrape()

    for (let i = 0; i < 3; i++) expect(await outcome(rest.svc_list_workspaces())).toBe("ok")
    for (let i = 0; i < 2; i++) expect(await outcome(mcp.svc_list_workspaces())).toBe("ok")
    const missingNote = { noteId: "note_00000000000000" }
    expect(await outcome(rest.svc_get_note_markdown(missingNote))).toBe("not-found")
    expect(await outcome(mcp.svc_get_note_markdown(missingNote))).toBe("not-found")
    // A name nobody serves is counted under the endpoint's route, never under the name typed.
    const unknown: string = "svc_no_such_tool"
    expect(await outcome(rest.call(unknown as ToolName))).toBe("not-found")

    const afterText = await scrapeText()
    const after = parsePrometheusTextFormat(afterText)
    const moved = (name: string, labels: Readonly<Record<string, string>>) =>
      sampleOf(after, name, labels) - sampleOf(before, name, labels)
    expect(moved("svc_http_requests_total", requests("rest", "svc_list_workspaces", "2xx"))).toBe(3)
    expect(moved("svc_http_requests_total", requests("mcp", "svc_list_workspaces", "2xx"))).toBe(2)
    expect(moved("svc_http_requests_total", requests("rest", "svc_get_note_markdown", "4xx"))).toBe(1)
    // MCP answers a tool failure inside a 200 result.
    expect(moved("svc_http_requests_total", requests("mcp", "svc_get_note_markdown", "2xx"))).toBe(1)
    expect(moved("svc_http_requests_total", requests("rest", "/v1/tools/:name", "4xx"))).toBe(1)
    expect(moved("svc_tool_failures_total", { tool: "svc_get_note_markdown", status: "not-found" })).toBe(2)
    expect(
      after
        .find((family) => family.name === "svc_http_requests_total")
        ?.metrics.some((m) => sameLabels(m.labels, { route: unknown }))
    ).toBe(false)
    // The histogram counts the same requests as the counter, each under +Inf, and cumulative buckets never fall.
    for (const [face, count] of [
      ["rest", 3],
      ["mcp", 2]
    ] as const) {
      const labels = requests(face, "svc_list_workspaces", "2xx")
      const buckets = histogramSeries(afterText, "svc_http_request_duration_seconds", labels)
      expect(Number(buckets["+Inf"])).toBe(sampleOf(after, "svc_http_requests_total", labels))
      expect(Number(buckets["+Inf"])).toBeGreaterThanOrEqual(count)
      const counts = Object.entries(buckets)
        .map(([bound, value]) => [bound === "+Inf" ? Number.POSITIVE_INFINITY : Number(bound), Number(value)] as const)
        .sort(([a], [b]) => a - b)
        .map(([, value]) => value)
      expect(counts).toEqual([...counts].sort((a, b) => a - b))
    }
  })

  it("counts the router's requests by route pattern, and rate-limit refusals by limit", async () => {
    const before = await scrape()
    expect((await fetch(`${fixture.server.baseUrl}/s/nobody-here/posts`)).status).toBe(404)
    expect((await fetch(`${fixture.server.baseUrl}/no/such/path`)).status).toBe(404)

    // The tool calls' limit is per credential and minute: call until it refuses, then twice more.
    const call = () =>
      fetch(`${fixture.server.baseUrl}/v1/tools/svc_list_workspaces`, {
        method: "POST",
        headers: { authorization: `Bearer ${bootstrapKey()}` }
      }).then((response) => response.status)
    let refused = 0
    for (let calls = 0; calls < 200 && refused < 3; calls++) if ((await call()) === 429) refused++
    expect(refused).toBe(3)

    const after = await scrape()
    const moved = (name: string, labels: Readonly<Record<string, string>>) =>
      sampleOf(after, name, labels) - sampleOf(before, name, labels)
    expect(moved("svc_http_requests_total", requests("pages", "/s/:handle/posts", "4xx"))).toBe(1)
    expect(moved("svc_http_requests_total", requests("other", "unmatched", "4xx"))).toBe(1)
    expect(moved("svc_rate_limit_refusals_total", { limit: "tools" })).toBe(3)
    expect(moved("svc_http_requests_total", requests("rest", "svc_list_workspaces", "4xx"))).toBe(3)
  })

  it("reads the work queues, the event loop and the database at scrape time", async () => {
    const families = await scrape()
    const queues = families.find((family) => family.name === "svc_worker_queue_depth")?.metrics ?? []
    expect(queues.map((m) => `${m.labels?.worker}/${m.labels?.queue}`)).toEqual(
      expect.arrayContaining(["webhooks/deliveries", "mail/outbox", "publishing/deliveries", "autoDm/sends"])
    )
    expect(families.map((family) => family.name)).toEqual(
      expect.arrayContaining([
        "svc_worker_oldest_pending_seconds",
        "svc_worker_expired_leases",
        "svc_event_loop_delay_seconds"
      ])
    )
    // The pool's gauges exist on PostgreSQL only; PGlite is one session.
    const onPostgres = (fixture.env.DATABASE_URL ?? "") !== ""
    expect(families.some((family) => family.name === "svc_db_pool_connections")).toBe(onPostgres)
    if (onPostgres) expect(sampleOf(families, "svc_db_pool_connections", { state: "max" })).toBeGreaterThan(0)
  })
})
