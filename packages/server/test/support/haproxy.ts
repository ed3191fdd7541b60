/** Debian's HAProxy with the shipped `deploy/haproxy.cfg` in front of running `svc serve` instances, for the tests. */
import { type ChildProcess, spawn } from "node:child_process"
import { resolve } from "node:path"
import { freePort } from "../../bench/processes.js"
import { collectOutput, type RunningServer } from "./server-process.js"
import { waitFor } from "./webhooks.js"

const config = resolve(import.meta.dirname, "../../../../deploy/haproxy.cfg")

/** A running HAProxy: its URL, what it has logged (state changes: `svc1 is DOWN`), and its process. */
export interface Balancer {
  readonly url: string
  readonly output: () => string
  readonly process: ChildProcess
}

/**
 * Starts HAProxy (`command`, its path) on a free loopback port with the three instances as `SVC_1..3`, as
 * deploy/README.md runs it, and waits until it answers `/ready`.
 */
export const startBalancer = async (command: string, servers: ReadonlyArray<RunningServer>): Promise<Balancer> => {
  const port = await freePort()
  const [one, two, three] = servers.map((server) => new URL(server.baseUrl).host)
  const process_ = spawn(command, ["-db", "-f", config], {
    env: { ...process.env, SVC_LISTEN: `127.0.0.1:${port}`, SVC_1: one ?? "", SVC_2: two ?? "", SVC_3: three ?? "" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const output = collectOutput(process_)
  const url = `http://127.0.0.1:${port}`
  await waitFor(
    "HAProxy to answer",
    () =>
      fetch(`${url}/ready`).then(
        (r) => r.ok,
        () => false
      ),
    20_000
  )
  return { url, output, process: process_ }
}
