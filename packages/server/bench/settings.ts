/**
 * What one bench run does, from flags (`npm run bench -- --duration 2 --connections 10`) or the matching
 * `BENCH_*` environment variables (flags win). Every run is bounded: each server's load per step lasts at
 * most `duration` seconds (in `rounds` turns) and sends at most `maxRequests` requests.
 */
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"

/** The load cases, each driven against every server that serves it. */
export const CASES = ["mcp-call", "mcp-list", "rest-call", "mcp-write"] as const
export type CaseName = (typeof CASES)[number]

/**
 * The servers of a run: the bare ceiling, the official SDK reference, the bare read (node:http and the same row
 * read, for scale) and ours.
 */
export const SERVERS = ["ceiling", "reference", "bare-read", "ours"] as const
export type ServerKind = (typeof SERVERS)[number]

/** The storage engines a database-backed server runs on. */
export type Engine = "pglite" | "postgres"

export interface BenchSettings {
  /** Load time per server and step (case × connections), cut into `rounds` turns. */
  readonly durationSeconds: number
  readonly rounds: number
  readonly warmupSeconds: number
  readonly connections: ReadonlyArray<number>
  readonly cases: ReadonlyArray<CaseName>
  readonly servers: ReadonlyArray<ServerKind>
  readonly maxRequests: number
  /** The engines to run the reference and ours on; PostgreSQL only when a URL is given. */
  readonly engines: ReadonlyArray<Engine>
  readonly postgresUrl: string | undefined
  /** Where `<date>.json` goes; `RESULTS.md` goes one folder up. */
  readonly resultsDir: string
  /** Writes a CPU profile of our server (`node --cpu-prof`) per engine into `<tmpdir>/svc-bench-profiles`. */
  readonly profile: boolean
}

/** Where `--profile` writes the CPU profiles of our server (the tool server, and the one draining webhooks). */
export const profilesDir = join(tmpdir(), "svc-bench-profiles")

/** The repository root (this file is packages/server/bench/settings.ts). */
export const repoRoot = resolve(import.meta.dirname, "../../..")

const list = (text: string) =>
  text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0)

const number = (name: string, text: string, min: number): number => {
  const value = Number(text)
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number ≥ ${min}, got ${text}`)
  return value
}

const oneOf = <T extends string>(name: string, allowed: ReadonlyArray<T>, text: string): ReadonlyArray<T> =>
  list(text).map((item) => {
    const found = allowed.find((known) => known === item)
    if (found === undefined) throw new Error(`${name}: ${item} is not one of ${allowed.join(", ")}`)
    return found
  })

/** Reads the settings from argv and the environment. */
export const readSettings = (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv): BenchSettings => {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      duration: { type: "string" },
      warmup: { type: "string" },
      rounds: { type: "string" },
      connections: { type: "string" },
      cases: { type: "string" },
      servers: { type: "string" },
      "max-requests": { type: "string" },
      engines: { type: "string" },
      "results-dir": { type: "string" },
      profile: { type: "boolean" }
    },
    strict: true
  })
  const pick = (flag: string | undefined, name: string, fallback: string) => flag ?? env[name]?.trim() ?? fallback
  const postgresUrl = env.DATABASE_URL?.trim() || undefined
  const engines = oneOf<Engine>(
    "--engines",
    ["pglite", "postgres"],
    pick(values.engines, "BENCH_ENGINES", postgresUrl === undefined ? "pglite" : "pglite,postgres")
  )
  if (engines.includes("postgres") && postgresUrl === undefined) {
    throw new Error("the postgres engine needs DATABASE_URL (a fresh schema is made in it and dropped afterwards)")
  }
  const connections = list(pick(values.connections, "BENCH_CONNECTIONS", "1,10,50")).map((c) =>
    number("--connections", c, 1)
  )
  return {
    durationSeconds: number("--duration", pick(values.duration, "BENCH_DURATION", "5"), 0.1),
    rounds: Math.round(number("--rounds", pick(values.rounds, "BENCH_ROUNDS", "3"), 1)),
    warmupSeconds: number("--warmup", pick(values.warmup, "BENCH_WARMUP", "1"), 0),
    connections,
    cases: oneOf("--cases", CASES, pick(values.cases, "BENCH_CASES", CASES.join(","))),
    servers: oneOf("--servers", SERVERS, pick(values.servers, "BENCH_SERVERS", SERVERS.join(","))),
    maxRequests: number("--max-requests", pick(values["max-requests"], "BENCH_MAX_REQUESTS", "200000"), 1),
    engines,
    postgresUrl,
    resultsDir: resolve(pick(values["results-dir"], "BENCH_RESULTS_DIR", resolve(repoRoot, "bench/results"))),
    profile: values.profile ?? env.BENCH_PROFILE === "1"
  }
}
