/**
 * With `OTEL_EXPORTER_OTLP_ENDPOINT` set, `svc serve` sends its spans over OTLP/HTTP: read here from a collector on
 * a loopback port. A call that carries a W3C `traceparent` continues the caller's trace.
 */
import { randomBytes } from "node:crypto"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { engineName, freshDatabase } from "./support/environment.js"
import { attribute, type OtlpCollector, type OtlpSpan, startOtlpCollector } from "./support/otlp-collector.js"
import { type RunningServer, startServer } from "./support/server-process.js"

const bootstrapKey = (output: string) => /svc_pat_[0-9A-Za-z]{36}/.exec(output)?.[0] ?? ""

/** A caller's span context, as its `traceparent` header says it. */
const callerSpan = () => {
  const traceId = randomBytes(16).toString("hex")
  const spanId = randomBytes(8).toString("hex")
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` }
}

const SERVER_KIND = 2

const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** A collector and a server exporting to it, both closed after the file. */
const tracedServer = async (
  env: Record<string, string>
): Promise<{ collector: OtlpCollector; server: RunningServer }> => {
  const collector = await startOtlpCollector()
  cleanups.push(collector.close)
  const database = await freshDatabase()
  cleanups.push(database.dispose)
  const server = await startServer({
    ...database.env,
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_SERVICE_NAME: "svc-test",
    ...env
  })
  cleanups.push(async () => {
    if (server.process.exitCode === null) await server.stop()
  })
  return { collector, server }
}

const createNote = (server: RunningServer, traceparent: string) =>
  fetch(`${server.baseUrl}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${bootstrapKey(server.output())}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      traceparent
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "svc_create_note", arguments: { markdown: "# Traced\n\nfrom a test" } }
    })
  })

/** The chain of parents from `span` up to the trace's root, `span` first. */
const ancestry = (spans: ReadonlyArray<OtlpSpan>, span: OtlpSpan): ReadonlyArray<OtlpSpan> => {
  const chain = [span]
  for (let at = span; at.parentSpanId !== undefined && at.parentSpanId !== ""; ) {
    const parent = spans.find((candidate) => candidate.spanId === at.parentSpanId)
    if (parent === undefined) break
    chain.push(parent)
    at = parent
  }
  return chain
}

describe(`svc serve traced over OTLP on ${engineName}`, { timeout: 180_000 }, () => {
  it("sends one trace per tool call over /mcp, continuing the caller's: server, tool and SQL spans", async () => {
    const { collector, server } = await tracedServer({
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100"
    })
    const caller = callerSpan()
    const response = await createNote(server, caller.traceparent)
    expect(response.status).toBe(200)
    expect(JSON.stringify(await response.json())).toContain('"ok":true')

    const trace = await collector.waitFor((spans) => {
      const inTrace = spans.filter((span) => span.traceId === caller.traceId)
      return inTrace.some((span) => span.name === "ToolServer.call") ? inTrace : undefined
    })
    expect(new Set(trace.map((span) => span.serviceName))).toEqual(new Set(["svc-test"]))
    const serverSpans = trace.filter((span) => span.kind === SERVER_KIND)
    expect(serverSpans).toHaveLength(1)
    const serverSpan = serverSpans[0]!
    expect(serverSpan.parentSpanId).toBe(caller.spanId)
    expect(serverSpan.name).toBe("http.server POST")
    expect(attribute(serverSpan.attributes, "url.path")).toBe("/mcp")
    expect(Number(attribute(serverSpan.attributes, "http.response.status_code"))).toBe(200)

    const tool = trace.find((span) => span.name === "ToolServer.call")!
    expect(ancestry(trace, tool).map((span) => span.spanId)).toContain(serverSpan.spanId)
    const sql = trace.filter((span) => span.name === "sql.execute")
    expect(sql.length).toBeGreaterThan(0)
    for (const statement of sql) expect(ancestry(trace, statement).at(-1)?.spanId).toBe(serverSpan.spanId)

    // A store API call: the router's server span continues the caller's trace, with the endpoint's span under it.
    const storeCaller = callerSpan()
    const me = await fetch(`${server.baseUrl}/store-app/v1/me`, {
      headers: { authorization: `Bearer ${bootstrapKey(server.output())}`, traceparent: storeCaller.traceparent }
    })
    await me.arrayBuffer()
    const storeTrace = await collector.waitFor((spans) => {
      const inTrace = spans.filter((span) => span.traceId === storeCaller.traceId)
      return inTrace.some((span) => span.name === "StoreApi.identity.me") &&
        inTrace.some((span) => span.kind === SERVER_KIND)
        ? inTrace
        : undefined
    })
    const storeServer = storeTrace.find((span) => span.kind === SERVER_KIND)!
    expect(storeServer.parentSpanId).toBe(storeCaller.spanId)
    expect(attribute(storeServer.attributes, "http.route")).toBe("/store-app/v1/me")
    const endpoint = storeTrace.find((span) => span.name === "StoreApi.identity.me")!
    expect(ancestry(storeTrace, endpoint).map((span) => span.spanId)).toContain(storeServer.spanId)

    // The background workers ran once at start-up, each in a trace of its own with its SQL under it (the delivery
    // worker's is a round: its claim is a span inside it).
    const workers = ["webhooks.round", "webhooks.purge", "Trash.purgeExpired", "OAuth.purgeExpired"]
    const all = await collector.waitFor((spans) =>
      workers.every((name) => spans.some((span) => span.name === name)) ? spans : undefined
    )
    for (const name of workers) {
      const worker = all.find((span) => span.name === name)!
      expect(worker.parentSpanId ?? "").toBe("")
      const statements = all.filter((span) => span.traceId === worker.traceId && span.name === "sql.execute")
      expect(statements.length, name).toBeGreaterThan(0)
    }
  })

  it("sends OTLP/protobuf by default, and the spans still waiting go out when the server stops", async () => {
    // A minute between batches: only the flush on shutdown can deliver within the test.
    const { collector, server } = await tracedServer({ OTEL_BSP_SCHEDULE_DELAY: "60000" })
    const caller = callerSpan()
    const response = await createNote(server, caller.traceparent)
    expect(response.status).toBe(200)
    await response.arrayBuffer()
    expect(collector.requests).toHaveLength(0)

    expect(await server.stop()).toBe(0)
    const traceIdBytes = Buffer.from(caller.traceId, "hex")
    const exported = collector.requests.filter((request) => request.body.includes(traceIdBytes))
    expect(exported.length).toBeGreaterThan(0)
    for (const request of exported) {
      expect(request.path).toBe("/v1/traces")
      expect(request.contentType).toBe("application/x-protobuf")
    }
  })
})
