import { promises as dns } from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import { isIP } from "node:net"
import { MediaFetcher, MediaUrlRefused } from "@svc/core/media"
import { Unreachable } from "@svc/core/shared"
import { isLoopbackHost, isPublicAddress } from "@svc/core/webhooks"
import { Effect, Layer, Stream } from "effect"
import { OutboundSettings } from "../http-sender/config.js"
import { pinnedLookup, type ResolvedAddress } from "../http-sender/connections.js"

/** Settings of the media fetcher. */
export interface MediaFetcherOptions {
  /** Test-only: loopback URLs over plain http (SVC_WEBHOOKS_ALLOW_LOOPBACK, as the sender). */
  readonly allowLoopback: boolean
  /** Deadline for the answer's head (DNS, connect, TLS, status). */
  readonly headMs: number
  /** Longest wait for the next bytes of the body. */
  readonly idleMs: number
  readonly userAgent: string
  readonly resolve?: (host: string) => Promise<ReadonlyArray<ResolvedAddress>>
}

const systemResolve = async (host: string): Promise<ReadonlyArray<ResolvedAddress>> =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4
  }))

const refused = (message: string) => new MediaUrlRefused({ message })

const fileNameOf = (url: URL): string | null => {
  const last = url.pathname.split("/").pop() ?? ""
  try {
    return decodeURIComponent(last) || null
  } catch {
    return last || null
  }
}

/**
 * Fetches media by GET with the outgoing-HTTP rules of webhooks: https only, no user:password, every address of the
 * name public (the connection pinned to the checked one), no redirect followed, a deadline for the head and for
 * each wait on the body. The body is streamed: the caller's size cap stops the download.
 */
export const makeMediaFetcher = (options: MediaFetcherOptions): MediaFetcher["Type"] => {
  const resolve = options.resolve ?? systemResolve

  const target = (text: string) =>
    Effect.gen(function* () {
      if (!URL.canParse(text)) return yield* Effect.fail(refused("url is not a URL; give the file's https address"))
      const url = new URL(text)
      const loopbackAllowed = options.allowLoopback && isLoopbackHost(url.hostname)
      if (url.protocol !== "https:" && !(loopbackAllowed && url.protocol === "http:")) {
        return yield* Effect.fail(refused("url must start with https://"))
      }
      if (url.username !== "" || url.password !== "") {
        return yield* Effect.fail(refused("url cannot carry a user name or password"))
      }
      const host = url.hostname.replace(/^\[|\]$/g, "")
      const addresses =
        isIP(host) !== 0
          ? [{ address: host, family: isIP(host) === 6 ? 6 : 4 } as const]
          : yield* Effect.tryPromise({
              try: () => resolve(host),
              catch: () => new Unreachable({ message: `the name ${host} does not resolve; check the URL` })
            })
      const pinned = addresses[0]
      if (pinned === undefined) return yield* Effect.fail(new Unreachable({ message: `${host} has no address` }))
      if (!loopbackAllowed && !addresses.every((a) => isPublicAddress(a.address))) {
        return yield* Effect.fail(refused(`${host} is a private or internal address; give a public URL`))
      }
      return { url, pinned }
    })

  return {
    fetch: (text) =>
      Effect.gen(function* () {
        const { url, pinned } = yield* target(text)
        const client = url.protocol === "https:" ? https : http
        const response = yield* Effect.async<http.IncomingMessage, Unreachable>((resume) => {
          const request = client.get(url, {
            lookup: pinnedLookup(pinned),
            headers: { "user-agent": options.userAgent, accept: "*/*" },
            timeout: options.headMs
          })
          const deadline = setTimeout(() => request.destroy(new Error("timeout")), options.headMs)
          request.once("response", (res) => {
            clearTimeout(deadline)
            resume(Effect.succeed(res))
          })
          request.once("error", (error) => {
            clearTimeout(deadline)
            resume(Effect.fail(new Unreachable({ message: `could not fetch ${url.host}: ${error.message}` })))
          })
          return Effect.sync(() => {
            clearTimeout(deadline)
            request.destroy()
          })
        })
        const status = response.statusCode ?? 0
        if (status < 200 || status > 299) {
          response.destroy()
          return yield* Effect.fail(
            status >= 300 && status < 400
              ? refused(`the URL redirects (HTTP ${status}); give the address it redirects to`)
              : new Unreachable({ message: `the URL answered HTTP ${status}` })
          )
        }
        const length = Number(response.headers["content-length"])
        response.setTimeout(options.idleMs, () => response.destroy(new Error("the body stalled")))
        const body = Stream.fromAsyncIterable<Uint8Array, Unreachable>(
          response,
          (cause) => new Unreachable({ message: `the download from ${url.host} broke off: ${String(cause)}` })
        ).pipe(Stream.ensuring(Effect.sync(() => response.destroy())))
        return {
          fileName: fileNameOf(url),
          declaredBytes: Number.isSafeInteger(length) && length >= 0 ? length : null,
          body
        }
      })
  }
}

/** The media fetcher with the app's `OutboundSettings` (loopback only where tests allow it). */
export const MediaFetcherLive = Layer.effect(
  MediaFetcher,
  Effect.map(OutboundSettings, (settings) =>
    makeMediaFetcher({
      allowLoopback: settings.allowLoopback,
      headMs: 10_000,
      idleMs: 30_000,
      userAgent: "svc-media-import"
    })
  )
)
