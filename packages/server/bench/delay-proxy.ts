/**
 * A receiver far away, on loopback: a TCP relay in front of a local server that holds every chunk for half a
 * round trip in each direction, and the first bytes of each new connection for one round trip more (the TCP
 * handshake a real network makes them wait for). With it the bench measures what a network's latency costs a
 * sender, which loopback hides: a new connection per send pays two round trips, a kept one pays one.
 */
import { createServer, connect, type Socket } from "node:net"

/** The relay: its own port on 127.0.0.1, and how to stop it. */
export interface DelayProxy {
  readonly port: number
  readonly close: () => Promise<void>
}

/** Starts a relay to `127.0.0.1:targetPort` with `rttMs` of round trip. */
export const startDelayProxy = async (targetPort: number, rttMs: number): Promise<DelayProxy> => {
  const half = rttMs / 2
  const open = new Set<Socket>()
  // Bytes from `from` reach `to` half a round trip later, in order; the first ones `firstExtraMs` later still.
  const relay = (from: Socket, to: Socket, firstExtraMs: number) => {
    const queue: Array<{ readonly due: number; readonly send: () => void }> = []
    let timer: NodeJS.Timeout | undefined
    let extra = firstExtraMs
    const drain = () => {
      timer = undefined
      const now = performance.now()
      while (queue.length > 0 && (queue[0]?.due ?? 0) <= now) queue.shift()?.send()
      const next = queue[0]
      if (next !== undefined) timer = setTimeout(drain, Math.max(0, next.due - now))
    }
    const later = (send: () => void) => {
      queue.push({ due: performance.now() + half + extra, send })
      extra = 0
      if (timer === undefined) timer = setTimeout(drain, Math.max(0, (queue[0]?.due ?? 0) - performance.now()))
    }
    from.on("data", (chunk: Buffer) => later(() => to.write(chunk)))
    from.on("end", () => later(() => to.end()))
    from.on("error", () => to.destroy())
    from.on("close", () => later(() => to.destroy()))
  }
  const server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1")
    open.add(client).add(upstream)
    client.on("close", () => open.delete(client))
    upstream.on("close", () => open.delete(upstream))
    relay(client, upstream, rttMs)
    relay(upstream, client, 0)
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  const address = server.address()
  return {
    port: typeof address === "object" && address !== null ? address.port : 0,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of open) socket.destroy()
        server.close(() => done())
      })
  }
}
