/** Child processes of the bench: start one server, wait for it, watch its memory, stop it. */
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { repoRoot } from "./settings.js"

/** A free loopback port (the probe closes before the server takes it). */
export const freePort = () =>
  new Promise<number>((done, fail) => {
    const probe = createServer()
    probe.once("error", fail)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address ? address.port : 0
      probe.close(() => done(port))
    })
  })

/** A server under load: where it listens, and its memory. */
export interface BenchProcess {
  readonly name: string
  readonly baseUrl: string
  readonly pid: number
  /** Resident memory now, in bytes (0 once the process is gone). */
  readonly rss: () => number
  /** CPU time (user + system) the process has used so far, in seconds. */
  readonly cpuSeconds: () => number
  readonly output: () => string
  /** SIGTERM, then SIGKILL after 15 s; answers the exit code. */
  readonly stop: () => Promise<number | null>
}

// VmRSS from /proc is the process's own resident set, read without disturbing it.
const residentBytes = (pid: number): number => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8")
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]
    return kb === undefined ? 0 : Number(kb) * 1024
  } catch {
    return 0
  }
}

// utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 a second on Linux);
// the command name (field 2) may hold spaces, so fields are counted from the closing parenthesis.
const cpuSecondsOf = (pid: number): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** Spawns `node <args>` with `env` listening on `port` and waits until `GET <baseUrl>/health` answers 200. */
export const startProcess = async (
  name: string,
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  port: number
): Promise<BenchProcess> => {
  // From the repository root, so `--import tsx` and relative paths resolve as they do for `npm run`.
  const child: ChildProcess = spawn(process.execPath, [...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000)
  }
  child.stdout?.on("data", keep)
  child.stderr?.on("data", keep)
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited early:\n${output}`)
    try {
      const health = await fetch(`${baseUrl}/health`)
      await health.arrayBuffer()
      if (health.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`${name} did not answer /health within 120 s:\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  const pid = child.pid ?? 0
  return {
    name,
    baseUrl,
    pid,
    rss: () => (child.exitCode === null ? residentBytes(pid) : 0),
    cpuSeconds: () => cpuSecondsOf(pid),
    output: () => output,
    stop: () => {
      if (child.exitCode !== null || child.signalCode !== null) return exited
      child.kill("SIGTERM")
      const force = setTimeout(() => child.kill("SIGKILL"), 15_000)
      return exited.finally(() => clearTimeout(force))
    }
  }
}

/** Samples a process's resident memory every 50 ms until stopped; answers the peak seen. */
export const watchPeakRss = (process: BenchProcess) => {
  let peak = process.rss()
  const timer = setInterval(() => {
    peak = Math.max(peak, process.rss())
  }, 50)
  return () => {
    clearInterval(timer)
    return Math.max(peak, process.rss())
  }
}
