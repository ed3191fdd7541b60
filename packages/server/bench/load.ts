/** Drives one server with autocannon for one slice of a step, bounded in time and requests. */
import autocannon from "autocannon"
import { Predicate } from "effect"
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

// autocannon appends every body chunk to a string, a UTF-8 decode of the whole body. For a compressed answer (our
// gzipped tools/list, which the ceiling sends too) that decode took ~130 µs a response on a 2-core bench machine
// and was the load generator's limit, not the server's. The body checks need only the ends of a body (the JSON-RPC
// head, `"isError"` near the end), so each client keeps the first and last 4 KB of a body, read as latin1 (the
// markers are ASCII). When autocannon's client no longer has this shape, bodies are kept whole as before.
const BODY_END_CHARS = 4096

interface PendingResponse {
  body: string
  bodyHead?: string
  bodyTail?: string
}

interface ResponseQueue {
  peek: () => PendingResponse | undefined
  addBody: (data: Buffer) => void
}

const isResponseQueue = (value: unknown): value is ResponseQueue =>
  Predicate.hasProperty(value, "peek") &&
  Predicate.isFunction(value.peek) &&
  Predicate.hasProperty(value, "addBody") &&
  Predicate.isFunction(value.addBody)

/** A body of up to twice the kept length stays whole; a longer one keeps its first and last 4 KB. */
const keepBodyEnds = (client: object): void => {
  const queue: unknown = Reflect.get(client, "pipelinedRequests")
  if (!isResponseQueue(queue)) return
  queue.addBody = (data) => {
    const pending = queue.peek()
    if (pending === undefined) return
    const text = data.toString("latin1")
    let head = pending.bodyHead ?? ""
    let tail = pending.bodyTail ?? ""
    const intoHead = Math.max(0, Math.min(text.length, BODY_END_CHARS - head.length))
    head += text.slice(0, intoHead)
    tail = `${tail}${text.slice(intoHead)}`.slice(-BODY_END_CHARS)
    pending.bodyHead = head
    pending.bodyTail = tail
    pending.body = `${head}${tail}`
  }
}

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
        setupClient: keepBodyEnds,
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
