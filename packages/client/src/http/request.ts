// The HTTP machinery both Promise clients share: one JSON request with a deadline, the caller's abort signal and
// waiting out 429s within a budget. Only `fetch` and web APIs: this runs in browsers and edge runtimes too.

/** How a client waits out `429 Too Many Requests`. */
export interface RetryOptions {
  /** How many times one call may be sent again after a 429; default 2. 0 turns retrying off. */
  readonly attempts?: number
  /** The longest single wait for `Retry-After`, in ms; a longer one fails at once. Default 65,000 (a minute and a bit). */
  readonly maxDelayMs?: number
}

/** What every client takes. */
export interface ClientOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:8787` (a path prefix behind a proxy is kept). */
  readonly baseUrl: string
  /** An API key (`svc_pat_…`) or an OAuth access token. */
  readonly token: string
  /** The `fetch` to use; the global one by default. */
  readonly fetch?: typeof fetch
  /** A deadline for each call, in ms, including any waits for `Retry-After`; default 30,000. 0 means none. */
  readonly timeoutMs?: number
  /** Waiting out rate limits; `false` fails at once with the 429. */
  readonly retry?: RetryOptions | false
}

/** Options of one call. */
export interface CallOptions {
  /** Aborts the call (and any wait for `Retry-After`); the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal
  /** This call's deadline in ms, instead of the client's. */
  readonly timeoutMs?: number
}

/** A call that did not finish in its deadline. */
export class SvcTimeoutError extends Error {
  override readonly name = "SvcTimeoutError"
  constructor(readonly timeoutMs: number) {
    super(`the call did not finish within ${timeoutMs} ms`)
  }
}

/** The server could not be reached, or answered something that is not the API's JSON. */
export class SvcConnectionError extends Error {
  override readonly name = "SvcConnectionError"
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options)
  }
}

/** One request, as the clients build it. */
export interface JsonRequest {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  /** The path after the base URL, starting with `/`, with its query string if any. */
  readonly path: string
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string>>
}

/** An answer with its JSON body parsed (`undefined` when the body was empty). */
export interface JsonAnswer {
  readonly status: number
  readonly headers: Headers
  readonly body: unknown
}

const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_ATTEMPTS = 2
const DEFAULT_MAX_DELAY_MS = 65_000

/** The seconds a 429 asks to wait: `Retry-After` (seconds or an HTTP date), else the body's `retry_after_seconds`. */
const retryDelayMs = (answer: JsonAnswer, now: number): number | undefined => {
  const header = answer.headers.get("retry-after")
  if (header !== null) {
    if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000
    const date = Date.parse(header)
    if (!Number.isNaN(date)) return Math.max(0, date - now)
  }
  const body = answer.body
  if (typeof body === "object" && body !== null && "retry_after_seconds" in body) {
    const seconds = body.retry_after_seconds
    if (typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  }
  return undefined
}

// Waits `ms`, or rejects at once with the reason when `signal` aborts first.
const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort)
      resolve()
    }, ms)
    signal.addEventListener("abort", onAbort, { once: true })
  })

const readJson = async (response: Response): Promise<unknown> => {
  // An MCP server that answers with an event stream may hold it open: say so at once rather than wait to read it.
  if (response.headers.get("content-type")?.toLowerCase().startsWith("text/event-stream")) {
    await response.body?.cancel()
    throw new SvcConnectionError(
      "the server answered with an event stream (text/event-stream); this client reads only JSON answers"
    )
  }
  const text = await response.text()
  if (text.trim() === "") return undefined
  try {
    return JSON.parse(text) as unknown
  } catch (cause) {
    throw new SvcConnectionError(`the server answered ${response.status} with a body that is not JSON`, { cause })
  }
}

/** The base URL without a trailing slash, checked once when a client is made. */
export const normaliseBaseUrl = (baseUrl: string): string => {
  const parsed = new URL(baseUrl)
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError(`baseUrl must be an http(s) URL, not ${parsed.protocol}`)
  }
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, "")
}

/**
 * Makes the function a client sends its requests through. Each call gets one deadline for all of its attempts;
 * a 429 is sent again after `Retry-After` while attempts are left and the wait fits both the budget and the
 * deadline, and is otherwise answered to the caller, who turns it into its typed error.
 */
export const makeRequester = (options: ClientOptions) => {
  const base = normaliseBaseUrl(options.baseUrl)
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis)
  const retry = options.retry === false ? { attempts: 0 } : (options.retry ?? {})
  const attempts = retry.attempts ?? DEFAULT_ATTEMPTS
  const maxDelayMs = retry.maxDelayMs ?? DEFAULT_MAX_DELAY_MS
  const authorization = `Bearer ${options.token}`

  return async (request: JsonRequest, call: CallOptions = {}): Promise<JsonAnswer> => {
    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const controller = new AbortController()
    const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Number.POSITIVE_INFINITY
    const timer =
      timeoutMs > 0 ? setTimeout(() => controller.abort(new SvcTimeoutError(timeoutMs)), timeoutMs) : undefined
    const onAbort = () => controller.abort(call.signal?.reason)
    if (call.signal?.aborted) controller.abort(call.signal.reason)
    else call.signal?.addEventListener("abort", onAbort, { once: true })
    const headers: Record<string, string> = { accept: "application/json", authorization, ...request.headers }
    if (request.body !== undefined) headers["content-type"] = "application/json"
    try {
      for (let attempt = 0; ; attempt++) {
        let response: Response
        try {
          response = await doFetch(`${base}${request.path}`, {
            method: request.method,
            headers,
            ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
            signal: controller.signal
          })
        } catch (cause) {
          if (controller.signal.aborted) throw controller.signal.reason
          throw new SvcConnectionError(`could not reach ${base}: ${String(cause)}`, { cause })
        }
        const answer: JsonAnswer = {
          status: response.status,
          headers: response.headers,
          body: await readJson(response)
        }
        if (answer.status !== 429 || attempt >= attempts) return answer
        const now = Date.now()
        const wait = retryDelayMs(answer, now)
        if (wait === undefined || wait > maxDelayMs || now + wait >= deadline) return answer
        await sleep(wait, controller.signal)
      }
    } catch (error) {
      // A body read cut off by the deadline or the caller's abort reports that, not the read's own error.
      if (controller.signal.aborted) throw controller.signal.reason
      throw error
    } finally {
      clearTimeout(timer)
      call.signal?.removeEventListener("abort", onAbort)
    }
  }
}

/** The function `makeRequester` makes. */
export type Requester = ReturnType<typeof makeRequester>
