/**
 * A `fetch` whose connections reach public addresses only, for clients that bring their own HTTP code (the publishers'
 * `@atproto/api` and masto) and reach a server whose address a person typed.
 *
 * The rule sits where a connection is opened, in an undici dispatcher: each name is resolved, every address it has
 * must be public (or loopback when `allowLoopback`), and the socket connects to the addresses of that same answer, so
 * a name that answers differently a moment later (DNS rebinding) is never reached. An IP literal is checked as it is.
 * Redirects are followed through the same dispatcher, so each hop is checked again.
 */
import { promises as dns, type LookupAddress } from "node:dns"
import { isIP, type LookupFunction } from "node:net"
import { isLoopbackHost, isPublicAddress, refusalMessage } from "@svc/core/webhooks"
import { Agent, buildConnector, type Dispatcher } from "undici"
import type { ResolvedAddress } from "./connections.js"

/** Settings of {@link makeCheckedFetch}. */
export interface CheckedFetchOptions {
  /** Test-only: admit loopback addresses (`SVC_WEBHOOKS_ALLOW_LOOPBACK`, as the sender). */
  readonly allowLoopback: boolean
  /** How host names are resolved; the system resolver unless a test supplies one. */
  readonly resolve?: (host: string) => Promise<ReadonlyArray<ResolvedAddress>>
  /** Longest wait for DNS, TCP and TLS of one connection, in ms (default 10 s). */
  readonly connectTimeoutMs?: number
}

/** A `fetch` bound to the checked dispatcher; `dispatcher` is for clients that call the global fetch with an init. */
export type CheckedFetch = typeof fetch & {
  readonly dispatcher: Dispatcher
  /** Closes the kept-alive connections. */
  readonly close: () => Promise<void>
}

/** A connection refused by the address rule; `fetch` rejects with a `TypeError` whose `cause` chain holds it. */
export class AddressRefused extends Error {
  readonly code = "ERR_SVC_ADDRESS_REFUSED"
  constructor(readonly host: string) {
    super(`Refused to connect to ${host}: ${refusalMessage["non-public-address"]}`)
    this.name = "AddressRefused"
  }
}

/** The {@link AddressRefused} in `error`'s `cause` chain (a fetch, a client library's wrapper around it), if any. */
export const addressRefusalOf = (error: unknown): AddressRefused | undefined => {
  let current: unknown = error
  for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth++) {
    if (current instanceof AddressRefused) return current
    current = "cause" in current ? current.cause : undefined
  }
  return undefined
}

const systemResolve = async (host: string): Promise<ReadonlyArray<ResolvedAddress>> =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4
  }))

/** Builds the checked fetch. Its connections are kept alive between calls; `close` ends them. */
export const makeCheckedFetch = (options: CheckedFetchOptions): CheckedFetch => {
  const resolve = options.resolve ?? systemResolve
  const admitted = (address: string) => isPublicAddress(address) || (options.allowLoopback && isLoopbackHost(address))

  // Called by `net.connect` for every name it connects to (TLS included); the socket uses the addresses answered here.
  const checkedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0) {
          const error = Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" })
          callback(error, "", 4)
          return
        }
        // Every address must pass: a name that also points inside our network is refused, not half-trusted.
        if (!addresses.every((a) => admitted(a.address))) {
          callback(new AddressRefused(hostname), "", 4)
          return
        }
        if (lookupOptions.all) {
          callback(
            null,
            addresses.map((a): LookupAddress => ({ address: a.address, family: a.family }))
          )
        } else {
          const first = addresses[0] as ResolvedAddress
          callback(null, first.address, first.family)
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 4)
    )
  }

  const connector = buildConnector({ lookup: checkedLookup, timeout: options.connectTimeoutMs ?? 10_000 })
  const agent = new Agent({
    connect: (connectOptions, callback) => {
      // `net.connect` skips the lookup for an IP literal, so the literal is checked here.
      const host = connectOptions.hostname.replace(/^\[|\]$/g, "")
      if (isIP(host) !== 0 && !admitted(host)) {
        callback(new AddressRefused(host), null)
        return
      }
      connector(connectOptions, callback)
    }
  })
  const checkedFetch = (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    fetch(input, withDispatcher(init, agent))
  return Object.assign(checkedFetch, { dispatcher: agent, close: () => agent.close() })
}

/**
 * `init` with `dispatcher` set: Node's fetch (undici) takes the connection pool of a call there, an extension the
 * web's `RequestInit` type does not declare.
 */
export const withDispatcher = (init: RequestInit | undefined, dispatcher: Dispatcher): RequestInit => {
  const extended: RequestInit & { readonly dispatcher: Dispatcher } = { ...init, dispatcher }
  return extended
}
