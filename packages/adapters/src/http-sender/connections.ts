/**
 * Kept-alive connections to receivers, so that a busy webhook does not pay a TCP and TLS handshake per delivery.
 *
 * A connection is reused only for the same origin at the same checked address: the sender resolves and checks the
 * receiver's name before every send, and asks for the agent of the address it just admitted. A name that now
 * resolves elsewhere gets a new connection to the new address, never one opened after an older answer.
 */
import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"

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
  /** Origin and address pairs kept; past that the least recently used is left to close when idle. */
  readonly maxOrigins: number
  /** Idle connections kept per origin and address; more run at once when needed and close after use. */
  readonly maxIdlePerOrigin: number
}

/** The connections of one sender. */
export interface ReceiverConnections {
  /** The agent to send to `url` through, connecting to `pinned` only; `false` for a connection of its own. */
  readonly agentFor: (url: URL, pinned: ResolvedAddress) => http.Agent | false
  /** Closes every kept connection, idle or not; for the sender's shut-down. */
  readonly closeAll: () => void
}

/** A `lookup` for `net.connect` that answers `pinned` for any name. */
export const pinnedLookup =
  (pinned: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }])
    else callback(null, pinned.address, pinned.family)
  }

/** Keep-alive agents by origin and checked address, least recently used first out. */
export const makeReceiverConnections = (options: ReceiverConnectionOptions): ReceiverConnections => {
  const agents = new Map<string, http.Agent>()
  return {
    agentFor: (url, pinned) => {
      if (options.idleMs <= 0) return false
      const key = `${url.protocol}//${url.host} ${pinned.address}`
      const known = agents.get(key)
      if (known !== undefined) {
        // Moved to the back: a Map iterates in insertion order, so the front is the least recently used.
        agents.delete(key)
        agents.set(key, known)
        return known
      }
      const agentOptions = {
        keepAlive: true,
        timeout: options.idleMs,
        maxFreeSockets: options.maxIdlePerOrigin,
        scheduling: "lifo" as const,
        // Passed to every connect of this agent: the only address it ever reaches is the checked one.
        lookup: pinnedLookup(pinned)
      }
      const agent = url.protocol === "https:" ? new https.Agent(agentOptions) : new http.Agent(agentOptions)
      agents.set(key, agent)
      for (const [oldest] of agents) {
        if (agents.size <= options.maxOrigins) break
        // Not destroyed: a send may still be running on it. Its idle connections are unreferenced and close at
        // the idle timeout, and the agent goes with them.
        agents.delete(oldest)
      }
      return agent
    },
    closeAll: () => {
      for (const agent of agents.values()) agent.destroy()
      agents.clear()
    }
  }
}
