/** Drives one server with autocannon for one slice of a step, bounded in time and requests. */
import autocannon from "autocannon"
import { type CaseRequest, requestHeaders } from "./cases.js"
import { type BenchProcess, watchPeakRss } from "./processes.js"

/** What one slice measured. */
export interface Slice {
  readonly requests: number
  /** Connection errors and timeouts, non-2xx answers, and 2xx answers whose body says the call failed. */
  readonly errors: number
  /** Every response's latency in ms, so percentiles over several slices are exact. */
  readonly latencies: ReadonlyArray<number>
  readonly peakRssBytes: number
  readonly seconds: number
  /** CPU seconds the server process used during the slice (its database server's not included). */
  readonly cpuSeconds: number
}

// autocannon appends every body chunk to a string (a UTF-8 decode of the whole body). For our gzipped tools/list
// that decode is the load generator's own cost, and it can be the limit of the mcp-list case on a small machine
// (docs/performance.md). The bench used to replace autocannon's internal body queue to keep only the ends of each
// body; that reached into another package's internals (DESIGN §3.10) and is gone.

/** The load of one slice. */
export interface Load {
  readonly connections: number
  readonly durationSeconds: number
  readonly maxRequests: number
}

/** Sends `request` to `server` at `load`; memory is sampled throughout. */
export const drive = (server: BenchProcess, request: CaseRequest, token: string, load: Load): Promise<Slice> =>
  new Promise((done, fail) => {
    const peak = watchPeakRss(server)
    const latencies: number[] = []
    const cpuBefore = server.cpuSeconds()
    const started = process.hrtime.bigint()
    const instance = autocannon(
      {
        url: `${server.baseUrl}${request.path}`,
        method: "POST",
        headers: requestHeaders(token),
        body: request.body,
        verifyBody: (body) => request.succeeded(String(body)),
        connections: load.connections,
        duration: load.durationSeconds,
        // autocannon refuses an overall cap below one request per connection.
        maxOverallRequests: Math.max(load.maxRequests, load.connections),
        timeout: 10
      },
      (error: unknown, result) => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9
        const peakRssBytes = peak()
        const cpuSeconds = server.cpuSeconds() - cpuBefore
        if (error) return fail(error)
        done({
          requests: result.requests.total,
          // A non-2xx answer fails the body check too, so mismatches already hold them (the max is safe).
          errors: result.errors + Math.max(result.non2xx, result.mismatches),
          latencies,
          peakRssBytes,
          seconds,
          cpuSeconds
        })
      }
    )
    // autocannon emits (client, statusCode, bytes, responseTime); its type declarations leave out the client.
    instance.on("response", (...args: ReadonlyArray<unknown>) => {
      const ms = args[3]
      if (typeof ms === "number") latencies.push(ms)
    })
  })

/** The `q` quantile (0–1) of latencies, in ms with two decimals. */
export const quantile = (sorted: ReadonlyArray<number>, q: number): number => {
  if (sorted.length === 0) return 0
  const value = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0
  return Math.round(value * 100) / 100
}
