import { promises as dns } from "node:dns"
import { isIP } from "node:net"
import * as http from "node:http"
import * as https from "node:https"
import { type FetchedPage, PageFetcher, PageFetchFailed } from "@svc/core/custom-ai"
import { isLoopbackHost, isPublicAddress } from "@svc/core/webhooks"
import { Effect, Layer } from "effect"
import { OutboundSettings } from "./config.js"
import { pinnedLookup, type ResolvedAddress } from "./connections.js"

/** Settings of the page fetcher. */
export interface PageFetcherOptions {
  /** Test-only: admit loopback pages over plain http (SVC_WEBHOOKS_ALLOW_LOOPBACK, as the sender). */
  readonly allowLoopback: boolean
  /** One deadline over every hop: DNS, connect, TLS and body. */
  readonly timeoutMs: number
  /** The largest body read; a larger page fails as too large rather than being indexed cut short. */
  readonly maxBytes: number
  readonly maxRedirects: number
  readonly userAgent: string
  /** How host names are resolved; the system resolver unless a test supplies one. */
  readonly resolve?: (host: string) => Promise<ReadonlyArray<ResolvedAddress>>
}

type Reason = PageFetchFailed["reason"]

class Refused extends Error {
  constructor(
    readonly reason: Reason,
    message: string
  ) {
    super(message)
  }
}

const LOCAL_NAMES =
  /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)$|\.(localhost|local|internal|home\.arpa|lan)$/i

const systemResolve = async (host: string): Promise<ReadonlyArray<ResolvedAddress>> =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4
  }))

const codeOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "code" in error ? String(error.code) : ""

const reasonOf = (error: unknown): Reason => {
  const code = codeOf(error)
  if (code === "ABORT_ERR" || code === "ETIMEDOUT") return "timeout"
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA") return "dns"
  if (code.startsWith("ERR_TLS") || code.startsWith("ERR_SSL") || code.includes("CERT")) return "tls"
  if (code.startsWith("HPE_")) return "protocol"
  return "connect"
}

const decode = (body: Buffer, contentType: string | undefined) => {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType ?? "")?.[1]
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body)
  } catch {
    // An unknown charset label: read as UTF-8, the web's default.
    return new TextDecoder("utf-8").decode(body)
  }
}

/**
 * Fetches pages by GET with the outgoing-HTTP rules: http or https, no user:password, public addresses only (every
 * address of a name must be public, and the connection is pinned to the checked one), each redirect checked the
 * same way, a size cap and one deadline.
 */
export const makePageFetcher = (options: PageFetcherOptions): PageFetcher["Type"] => {
  const resolve = options.resolve ?? systemResolve

  const checkedTarget = async (text: string, signal: AbortSignal) => {
    if (!URL.canParse(text)) throw new Refused("invalid-url", "the address is not a URL")
    const url = new URL(text)
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new Refused("invalid-url", "the address must start with http:// or https://")
    }
    if (url.username !== "" || url.password !== "") {
      throw new Refused("invalid-url", "the address cannot carry a user name or password")
    }
    const host = url.hostname.replace(/^\[|\]$/g, "")
    const loopback = options.allowLoopback && isLoopbackHost(host)
    if (!loopback && (LOCAL_NAMES.test(host.replace(/\.$/, "")) || (isIP(host) === 0 && !host.includes(".")))) {
      throw new Refused("blocked-address", `${host} is a local name, not a public host`)
    }
    const addresses: ReadonlyArray<ResolvedAddress> =
      isIP(host) !== 0
        ? [{ address: host, family: host.includes(":") ? 6 : 4 }]
        : await Promise.race([
            resolve(host),
            new Promise<never>((_, reject) =>
              signal.addEventListener("abort", () => reject(signal.reason), { once: true })
            )
          ])
    if (addresses.length === 0) throw new Refused("dns", `${host} has no address`)
    const admitted = (a: ResolvedAddress) =>
      isPublicAddress(a.address) || (options.allowLoopback && isLoopbackHost(a.address))
    if (!addresses.every(admitted)) {
      throw new Refused("blocked-address", `${host} resolves to a private, loopback or otherwise non-public address`)
    }
    return { url, pinned: addresses[0] as ResolvedAddress }
  }

  const getOnce = (url: URL, pinned: ResolvedAddress, signal: AbortSignal) =>
    new Promise<{ status: number; location: string | undefined; contentType: string | undefined; body: Buffer }>(
      (done, reject) => {
        const client = url.protocol === "https:" ? https : http
        const request = client.request(
          url,
          {
            method: "GET",
            headers: {
              "user-agent": options.userAgent,
              accept: "text/html, text/plain, text/markdown;q=0.9, */*;q=0.1"
            },
            // The connection goes to the address checked above, whatever DNS answers a moment later.
            lookup: pinnedLookup(pinned),
            signal,
            agent: false
          },
          (response) => {
            const status = response.statusCode ?? 0
            const location = response.headers.location
            const contentType = response.headers["content-type"]
            if (status >= 300 && status < 400 && location !== undefined) {
              response.destroy()
              done({ status, location, contentType, body: Buffer.alloc(0) })
              return
            }
            const chunks: Array<Buffer> = []
            let size = 0
            response.on("data", (chunk: Buffer) => {
              size += chunk.length
              if (size > options.maxBytes) {
                response.destroy()
                reject(new Refused("too-large", `the page is larger than ${options.maxBytes} bytes`))
                return
              }
              chunks.push(chunk)
            })
            response.on("end", () => done({ status, location, contentType, body: Buffer.concat(chunks) }))
            response.on("error", reject)
          }
        )
        request.on("error", reject)
        request.end()
      }
    )

  const fetchPage = async (start: string, signal: AbortSignal): Promise<FetchedPage> => {
    let current = start
    for (let hop = 0; hop <= options.maxRedirects; hop++) {
      const { url, pinned } = await checkedTarget(current, signal)
      const answer = await getOnce(url, pinned, signal)
      if (answer.location !== undefined && answer.status >= 300 && answer.status < 400) {
        current = new URL(answer.location, url).href
        continue
      }
      return {
        status: answer.status,
        contentType: (answer.contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "",
        text: decode(answer.body, answer.contentType),
        finalUrl: url.href
      }
    }
    throw new Refused("protocol", `more than ${options.maxRedirects} redirects`)
  }

  return PageFetcher.of({
    fetch: (url) =>
      Effect.tryPromise({
        try: (interrupted) => {
          const deadline = AbortSignal.timeout(options.timeoutMs)
          return fetchPage(url, AbortSignal.any([deadline, interrupted])).catch((error: unknown) => {
            if (deadline.aborted) throw new Refused("timeout", `no answer within ${options.timeoutMs / 1000} s`)
            throw error
          })
        },
        catch: (error) =>
          error instanceof Refused
            ? new PageFetchFailed({ reason: error.reason, message: error.message })
            : new PageFetchFailed({
                reason: reasonOf(error),
                message: error instanceof Error ? error.message : String(error)
              })
      })
  })
}

/** The page fetcher with the service's limits: 10 s, 2 MB, 5 redirects; loopback only with the test switch (`OutboundSettings`). */
export const PageFetcherLive = Layer.effect(
  PageFetcher,
  Effect.map(OutboundSettings, ({ allowLoopback }) =>
    makePageFetcher({
      allowLoopback,
      timeoutMs: 10_000,
      maxBytes: 2 * 1024 * 1024,
      maxRedirects: 5,
      userAgent: "svc-knowledge/1.0"
    })
  )
)
