/** Starts the real `svc serve` process on a free loopback port, as a user would with `npm start`. */
import { type ChildProcess, spawn } from "node:child_process"
import { resolve } from "node:path"
import { freePort } from "../../bench/processes.js"

const bin = resolve(import.meta.dirname, "../../bin/svc.mjs")

/** A running server: its base URL, everything it printed so far, and how to stop it. */
export interface RunningServer {
  readonly baseUrl: string
  readonly output: () => string
  /** Sends SIGTERM and answers the exit code. */
  readonly stop: () => Promise<number | null>
  readonly process: ChildProcess
}

/** Which `svc` to start: this repository's by default, or another (an installed package's binary). */
export interface Launch {
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly cwd?: string
  /** The environment the server's own variables are added to. */
  readonly baseEnv?: NodeJS.ProcessEnv
  readonly timeoutMs?: number
}

const repositorySvc: Launch = { command: process.execPath, args: [bin, "serve"] }

/** Starts `svc serve` with the given environment and waits until `/health` answers. */
export const startServer = async (
  env: Record<string, string>,
  launch: Launch = repositorySvc
): Promise<RunningServer> => {
  const port = await freePort()
  const child = spawn(launch.command, [...launch.args], {
    ...(launch.cwd === undefined ? {} : { cwd: launch.cwd }),
    env: { ...(launch.baseEnv ?? process.env), DATABASE_URL: "", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
  const baseUrl = `http://127.0.0.1:${port}`
  const timeoutMs = launch.timeoutMs ?? 60_000
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null) throw new Error(`svc serve exited early:\n${output}`)
    try {
      const health = await fetch(`${baseUrl}/health`)
      if (health.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`svc serve did not answer /health within ${timeoutMs / 1000} s:\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    baseUrl,
    output: () => output,
    process: child,
    stop: () => {
      child.kill("SIGTERM")
      return exited
    }
  }
}
