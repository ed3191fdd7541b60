/**
 * Kept-alive connections to receivers, so that a busy webhook does not pay a TCP and TLS handshake per delivery:
 * one `undici` pool per receiver, with a cap on its connections.
 *
 * A connection is reused only for the same origin at the same checked address: the sender resolves and checks the
 * receiver's name before every send, and asks for the pool of the address it just admitted. A name that now
 * resolves elsewhere gets a new pool connecting to the new address, never a connection opened after an older answer.
 */
import type { LookupFunction } from "node:net"
import { Client, type Dispatcher, Pool } from "undici"

/** A resolved address of a host name; once checked, the one the sender connects to, whatever DNS says afterwards. */
export interface ResolvedAddress {
  readonly address: string
  readonly family: 4 | 6
}

/** Settings of {@link makeReceiverConnections}. */
export interface ReceiverConnectionOptions {
  /**
   * How long an idle connection is kept, in ms; 0 opens a new connection per send. Below the usual server
   * keep-alive timeouts (Node's 5 s, most proxies' 60 s or more), so the receiver rarely closes one under our
   * feet; a shorter `Keep-Alive: timeout=…` announced by the receiver wins.
   */
  readonly idleMs: number
  /** Origin and address pairs kept; past that the least recently used is closed once its sends have ended. */
  readonly maxOrigins: number
  /** Connections open at once to one origin and address; more sends wait for one of them (within their deadline). */
  readonly maxPerOrigin: number
  /** Longest wait for TCP and TLS of one connection, in ms. */
  readonly connectTimeoutMs: number
}

/** The connections of one sender. */
export interface ReceiverConnections {
  /** The kept-alive pool to send to `url` through, connecting to `pinned` only; none when nothing is kept. */
  readonly poolFor: (url: URL, pinned: ResolvedAddress) => Dispatcher | undefined
  /**
   * A connection of its own to `url` at `pinned`, closed after one send: for a send that must not reuse a kept one.
   * `close` it when the send has ended.
   */
  readonly ownConnection: (url: URL, pinned: ResolvedAddress) => Dispatcher
  /** Closes every kept connection, idle or not; for the sender's shut-down. */
  readonly closeAll: () => Promise<void>
}

/** A `lookup` for `net.connect` that answers `pinned` for any name. */
export const pinnedLookup =
  (pinned: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }])
    else callback(null, pinned.address, pinned.family)
  }

/** Kept-alive pools by origin and checked address, least recently used first out. */
export const makeReceiverConnections = (options: ReceiverConnectionOptions): ReceiverConnections => {
  const pools = new Map<string, Pool>()
  // Passed to every connect: the only address a pool or connection ever reaches is the checked one.
  const connect = (pinned: ResolvedAddress) => ({ lookup: pinnedLookup(pinned), timeout: options.connectTimeoutMs })
  return {
    poolFor: (url, pinned) => {
      if (options.idleMs <= 0) return undefined
      const key = `${url.origin} ${pinned.address}`
      const known = pools.get(key)
      if (known !== undefined) {
        // Moved to the back: a Map iterates in insertion order, so the front is the least recently used.
        pools.delete(key)
        pools.set(key, known)
        return known
      }
      const pool = new Pool(url.origin, {
        connections: options.maxPerOrigin,
        // One request at a time per connection: a POST is not safe to pipeline behind another.
        pipelining: 1,
        keepAliveTimeout: options.idleMs,
        // A receiver's `Keep-Alive: timeout=…` may shorten how long we keep a connection, never lengthen it.
        keepAliveMaxTimeout: options.idleMs,
        connect: connect(pinned)
      })
      pools.set(key, pool)
      for (const [oldest, old] of pools) {
        if (pools.size <= options.maxOrigins) break
        pools.delete(oldest)
        // Graceful: a send still running on it ends first; its connections close after.
        void old.close().catch(() => undefined)
      }
      return pool
    },
    ownConnection: (url, pinned) => new Client(url.origin, { pipelining: 1, connect: connect(pinned) }),
    closeAll: async () => {
      const all = [...pools.values()]
      pools.clear()
      await Promise.all(all.map((pool) => pool.destroy().catch(() => undefined)))
    }
  }
}
