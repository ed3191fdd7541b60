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

/** How many ports `startServer` tries when another process takes the one it picked before the server binds it. */
const PORT_ATTEMPTS = 3

/**
 * Starts `svc serve` with the given environment (on a free port unless `PORT` names one) and waits until it has bound its port and `/health` answers.
 *
 * The port is picked free, then handed to the server, which binds it seconds later: on a busy machine another test's
 * peer may take it in between. `/health` answering is then no proof that our server answers, so the server's own
 * "Listening on" line for the port is awaited too; a server that lost the port (EADDRINUSE) is started again on
 * another one.
 */
/** Everything `child` prints on stdout and stderr, as one text read when asked. */
export const collectOutput = (child: ChildProcess): (() => string) => {
  let output = ""
  const add = (chunk: Buffer) => {
    output += chunk.toString()
  }
  child.stdout?.on("data", add)
  child.stderr?.on("data", add)
  return () => output
}

export const startServer = async (
  env: Record<string, string>,
  launch: Launch = repositorySvc
): Promise<RunningServer> => {
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce(env, launch)
    if (started.kind === "running") return started.server
    // A port the caller named (a restart behind a load balancer) is not traded for another.
    if (started.kind === "port-taken" && env.PORT === undefined && attempt < PORT_ATTEMPTS) continue
    throw new Error(started.message)
  }
}

type Started =
  | { readonly kind: "running"; readonly server: RunningServer }
  | { readonly kind: "port-taken" | "failed"; readonly message: string }

const startOnce = async (env: Record<string, string>, launch: Launch): Promise<Started> => {
  const port = env.PORT === undefined ? await freePort() : Number(env.PORT)
  const child = spawn(launch.command, [...launch.args], {
    ...(launch.cwd === undefined ? {} : { cwd: launch.cwd }),
    env: { ...(launch.baseEnv ?? process.env), DATABASE_URL: "", HOST: "127.0.0.1", ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const output = collectOutput(child)
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
  const baseUrl = `http://127.0.0.1:${port}`
  // Logged by the HTTP server once the socket is bound (HttpServer.withLogAddress), whatever the host.
  const bound = new RegExp(`Listening on http://\\S+:${port}(?!\\d)`)
  const timeoutMs = launch.timeoutMs ?? 60_000
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null) {
      await exited
      return output().includes("EADDRINUSE")
        ? { kind: "port-taken", message: `svc serve could not bind port ${port}:\n${output()}` }
        : { kind: "failed", message: `svc serve exited early:\n${output()}` }
    }
    if (bound.test(output())) {
      try {
        const health = await fetch(`${baseUrl}/health`)
        if (health.ok) break
      } catch {
        // not answering yet
      }
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL")
      await exited
      return { kind: "failed", message: `svc serve did not answer /health within ${timeoutMs / 1000} s:\n${output()}` }
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    kind: "running",
    server: {
      baseUrl,
      output,
      process: child,
      stop: () => {
        child.kill("SIGTERM")
        return exited
      }
    }
  }
}
