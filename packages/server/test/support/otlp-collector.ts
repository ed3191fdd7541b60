/**
 * A tiny OTLP/HTTP trace collector on a loopback port that keeps what it receives in memory: the spans of every
 * OTLP/JSON request, and the raw body and content type of every request (for OTLP/protobuf ones).
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

/** One span as OTLP/JSON carries it (the fields the tests read). */
export interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>
}

/** One request the collector received. */
export interface OtlpRequest {
  readonly path: string
  readonly contentType: string | undefined
  readonly body: Buffer
}

/** The running collector. */
export interface OtlpCollector {
  /** Its base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT` takes it. */
  readonly endpoint: string
  readonly requests: ReadonlyArray<OtlpRequest>
  /** Every span received as OTLP/JSON so far, with its resource's `service.name`. */
  readonly spans: () => ReadonlyArray<OtlpSpan & { readonly serviceName: string | undefined }>
  /** Waits until `found` answers something for the spans received, or fails after `timeoutMs`. */
  readonly waitFor: <A>(
    found: (spans: ReturnType<OtlpCollector["spans"]>) => A | undefined,
    timeoutMs?: number
  ) => Promise<A>
  readonly close: () => Promise<void>
}

interface TracesData {
  readonly resourceSpans?: ReadonlyArray<{
    readonly resource?: { readonly attributes?: OtlpSpan["attributes"] }
    readonly scopeSpans?: ReadonlyArray<{ readonly spans?: ReadonlyArray<OtlpSpan> }>
  }>
}

/** A string attribute of a span (or resource), if it has it. */
export const attribute = (
  attributes: OtlpSpan["attributes"] | undefined,
  key: string
): string | number | boolean | undefined => {
  const value = attributes?.find((entry) => entry.key === key)?.value
  if (value === undefined) return undefined
  const inner = value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue
  return typeof inner === "string" || typeof inner === "number" || typeof inner === "boolean" ? inner : undefined
}

/** Starts a collector on 127.0.0.1; it answers every POST with 200 `{}`. */
export const startOtlpCollector = async (): Promise<OtlpCollector> => {
  const requests: Array<OtlpRequest> = []
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      requests.push({
        path: request.url ?? "",
        contentType: request.headers["content-type"],
        body: Buffer.concat(chunks)
      })
      response.writeHead(200, { "content-type": "application/json" })
      response.end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo

  const spans = () =>
    requests
      .filter((request) => request.contentType?.startsWith("application/json"))
      .flatMap((request) => {
        const data = JSON.parse(request.body.toString("utf8")) as TracesData
        return (data.resourceSpans ?? []).flatMap((resourceSpans) => {
          const serviceName = attribute(resourceSpans.resource?.attributes, "service.name")
          return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
            (scope.spans ?? []).map((span) => ({
              ...span,
              serviceName: typeof serviceName === "string" ? serviceName : undefined
            }))
          )
        })
      })

  const waitFor: OtlpCollector["waitFor"] = async (found, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const answer = found(spans())
      if (answer !== undefined) return answer
      if (Date.now() > deadline) {
        throw new Error(`the collector did not receive the spans in time; it has ${spans().length} spans`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    spans,
    waitFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
