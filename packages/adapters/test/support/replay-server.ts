/**
 * Recorded HTTP exchanges replayed by a local server, for networks no test can reach (a Mastodon instance, a payment
 * processor): a `node:http` server on an ephemeral loopback port answers each request with the first unused
 * recording that matches it, keeps every request it received so a test can read what was sent, and counts a request
 * no recording matches as a failure of the test.
 */
import { readFileSync } from "node:fs"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { Data, Effect, Schema, type Scope } from "effect"

/** What a request must carry for a recording to answer it: the method, the path, and the parts chosen. */
const RecordedRequest = Schema.Struct({
  method: Schema.String,
  /** The path; a query written here must be present with these values (other parameters are free). */
  path: Schema.String,
  /** Headers that must be present with exactly these values (names in any case). */
  headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  /** Fields of a JSON body that must be deep-equal to these (other fields are free). */
  json: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  /**
   * Text fields of a `multipart/form-data` or `application/x-www-form-urlencoded` body that must be equal to these,
   * named as sent: a URL-encoded name is decoded, so Stripe's `line_items[0][price_data][unit_amount]` is written so
   * here. File fields are read by the test.
   */
  form: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))
})

/** What the server answered. `{{origin}}` in header values and the body stands for the replay server's origin. */
const RecordedResponse = Schema.Struct({
  status: Schema.Number,
  headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  /** A JSON body, sent with the recorded `content-type` or `application/json; charset=utf-8`. */
  json: Schema.optional(Schema.Unknown),
  /** A body sent as written, for answers that are not JSON. */
  text: Schema.optional(Schema.String),
  /** Waits this long before answering, as a slow or stuck server does. */
  delayMs: Schema.optional(Schema.Number)
})

/** One recorded request and its answer. */
export const RecordedExchange = Schema.Struct({
  /** A label for reports: what the exchange is in the scenario. */
  name: Schema.String,
  request: RecordedRequest,
  response: RecordedResponse
})
export type RecordedExchange = typeof RecordedExchange.Type

/** A recording file: the exchanges of one scenario, in the order they happened, and where their shapes come from. */
export const Recording = Schema.Struct({
  provenance: Schema.String,
  exchanges: Schema.Array(RecordedExchange)
})
export type Recording = typeof Recording.Type

/** Reads and checks a recording file. */
export const loadRecording = (file: string | URL): Recording =>
  Schema.decodeUnknownSync(Recording)(JSON.parse(readFileSync(file, "utf8")))

/** A request the replay server received. */
export interface ReceivedRequest {
  readonly method: string
  /** Path and query, as sent. */
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Uint8Array
  /** The recording that answered it, or undefined when none matched. */
  readonly answeredBy: string | undefined
}

/** The server's requests that went wrong: none matched, or recordings were left unused. */
export class ReplayMismatch extends Data.TaggedError("ReplayMismatch")<{ readonly message: string }> {}

/** A running replay server. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string
  /** Every request received, in order. */
  readonly received: ReadonlyArray<ReceivedRequest>
  /** The recordings no request used yet. */
  readonly unused: () => ReadonlyArray<RecordedExchange>
  /** Fails when a request matched no recording, or (with `allUsed`) when a recording was never asked for. */
  readonly check: (options?: { readonly allUsed?: boolean }) => Effect.Effect<void, ReplayMismatch>
  /** Stops listening and cuts open connections; later requests find nothing there. */
  readonly close: Effect.Effect<void>
}

/**
 * Starts a replay server for `exchanges`, closed with the scope. A request no unused recording matches is answered
 * 501 with a JSON error naming it, makes {@link ReplayServer.check} fail, and fails the test when the scope closes.
 */
export const startReplayServer = (
  exchanges: ReadonlyArray<RecordedExchange>
): Effect.Effect<ReplayServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<ReplayServer>((resume) => {
      const used = new Set<number>()
      const received: Array<ReceivedRequest> = []
      let origin = ""
      const server = createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          const body = new Uint8Array(Buffer.concat(chunks))
          const method = request.method ?? "GET"
          const path = request.url ?? "/"
          void firstMatch(exchanges, used, { method, path, headers: request.headers, body }).then((index) => {
            const exchange = index === undefined ? undefined : exchanges[index]
            received.push({ method, path, headers: request.headers, body, answeredBy: exchange?.name })
            if (index === undefined || exchange === undefined) {
              response
                .writeHead(501, { "content-type": "application/json; charset=utf-8" })
                .end(JSON.stringify({ error: `no recording matches ${method} ${path}` }))
              return
            }
            used.add(index)
            const { headers, text } = answerOf(exchange, origin)
            const answer = () => {
              if (!response.destroyed) response.writeHead(exchange.response.status, headers).end(text)
            }
            if (exchange.response.delayMs === undefined) answer()
            else setTimeout(answer, exchange.response.delayMs).unref()
          })
        })
      })
      const close = Effect.async<void>((closed) => {
        server.closeAllConnections()
        if (!server.listening) return closed(Effect.void)
        server.close(() => closed(Effect.void))
      })
      server.listen(0, "127.0.0.1", () => {
        origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        resume(
          Effect.succeed({
            origin,
            received,
            unused: () => exchanges.filter((_, index) => !used.has(index)),
            check: (options) => {
              const unmatched = received.filter((request) => request.answeredBy === undefined)
              const unused = exchanges.filter((_, index) => !used.has(index))
              const problems = [
                ...unmatched.map((request) => `unexpected request ${request.method} ${request.path}`),
                ...(options?.allUsed === true ? unused.map((exchange) => `recording never used: ${exchange.name}`) : [])
              ]
              return problems.length === 0
                ? Effect.void
                : Effect.fail(new ReplayMismatch({ message: problems.join("; ") }))
            },
            close
          })
        )
      })
    }),
    // A request no recording matched fails the test even when the test never asks.
    (replay) => Effect.zipRight(replay.close, Effect.orDie(replay.check()))
  )

interface Incoming {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Uint8Array
}

/** The index of the first unused exchange whose request matches. */
const firstMatch = async (
  exchanges: ReadonlyArray<RecordedExchange>,
  used: ReadonlySet<number>,
  incoming: Incoming
): Promise<number | undefined> => {
  for (const [index, exchange] of exchanges.entries()) {
    if (used.has(index)) continue
    if (await matches(exchange.request, incoming)) return index
  }
  return undefined
}

const matches = async (recorded: RecordedExchange["request"], incoming: Incoming): Promise<boolean> => {
  if (recorded.method.toUpperCase() !== incoming.method.toUpperCase()) return false
  const want = new URL(recorded.path, "http://replay")
  const got = new URL(incoming.path, "http://replay")
  if (want.pathname !== got.pathname) return false
  for (const [name, value] of want.searchParams) if (!got.searchParams.getAll(name).includes(value)) return false
  for (const [name, value] of Object.entries(recorded.headers ?? {})) {
    if (incoming.headers[name.toLowerCase()] !== value) return false
  }
  if (recorded.json !== undefined) {
    const body = parseJson(incoming.body)
    if (typeof body !== "object" || body === null) return false
    for (const [name, value] of Object.entries(recorded.json)) {
      if (!deepEqual((body as Record<string, unknown>)[name], value)) return false
    }
  }
  if (recorded.form !== undefined) {
    const form = await formOf(incoming.headers, incoming.body)
    if (form === undefined) return false
    for (const [name, value] of Object.entries(recorded.form)) if (form.get(name) !== value) return false
  }
  return true
}

/** The fields of a `multipart/form-data` (or URL-encoded) body, parsed as a web `Request` parses them. */
export const formOf = async (headers: IncomingHttpHeaders, body: Uint8Array): Promise<FormData | undefined> => {
  const type = headers["content-type"]
  if (type === undefined) return undefined
  try {
    return await new Response(body, { headers: { "content-type": type } }).formData()
  } catch {
    return undefined
  }
}

const parseJson = (body: Uint8Array): unknown => {
  try {
    return JSON.parse(Buffer.from(body).toString("utf8"))
  } catch {
    return undefined
  }
}

const deepEqual = (a: unknown, b: unknown): boolean => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b))

const sorted = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sorted)
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, inner]) => [key, sorted(inner)])
    )
  }
  return value
}

const answerOf = (exchange: RecordedExchange, origin: string) => {
  const fill = (text: string) => text.replaceAll("{{origin}}", origin)
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(exchange.response.headers ?? {})) headers[name.toLowerCase()] = fill(value)
  if (exchange.response.json !== undefined) {
    headers["content-type"] ??= "application/json; charset=utf-8"
    return { headers, text: fill(JSON.stringify(exchange.response.json)) }
  }
  return { headers, text: fill(exchange.response.text ?? "") }
}
