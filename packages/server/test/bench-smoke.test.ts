/**
 * Keeps `npm run bench` from rotting: the whole bench (ceiling, SDK reference, our real `svc serve`)
 * runs for a moment with tiny settings, on PGlite, or on PostgreSQL when TEST_DATABASE_URL is set.
 * No timing is asserted (the machine is shared); only that every server answered every case correctly.
 */
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"

const root = resolve(import.meta.dirname, "../../..")
const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || undefined
const scratch = mkdtempSync(join(tmpdir(), "svc-bench-smoke-"))

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

interface BenchRow {
  readonly server: string
  readonly engine: string
  readonly case: string
  readonly requests: number
  readonly errors: number
  readonly overCeiling?: number
  readonly overReference?: number
}

const runBench = () =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      process.execPath,
      [
        "--import",
        "tsx",
        resolve(root, "packages/server/bench/run.ts"),
        "--duration",
        "0.4",
        "--rounds",
        "1",
        "--warmup",
        "0",
        "--connections",
        "2",
        "--max-requests",
        "40",
        "--engines",
        postgresUrl === undefined ? "pglite" : "postgres",
        "--results-dir",
        join(scratch, "results")
      ],
      { cwd: root, env: { ...process.env, DATABASE_URL: postgresUrl ?? "" }, timeout: 400_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
        done({ code, stdout, stderr })
      }
    )
  })

describe(`npm run bench (smoke, ${postgresUrl === undefined ? "PGlite" : "PostgreSQL"})`, { timeout: 420_000 }, () => {
  it("drives the ceiling, the SDK reference, the bare read and our server through every case without an error", async () => {
    const { code, stdout, stderr } = await runBench()
    expect(code, stderr).toBe(0)
    expect(stdout).toContain("÷reference")
    expect(stdout).toContain("Targets (10 connections")

    const files = readdirSync(join(scratch, "results")).filter((file) => file.endsWith(".json"))
    expect(files).toHaveLength(1)
    const result = JSON.parse(readFileSync(join(scratch, "results", files[0] ?? ""), "utf8")) as {
      rows: ReadonlyArray<BenchRow>
      webhooks: ReadonlyArray<{ rttMs: number; events: number; webhooks: number; delivered: number }>
    }
    const cases = ["mcp-call", "mcp-list", "rest-call", "mcp-write"]
    const servedBy: Record<string, ReadonlyArray<string>> = {
      ceiling: cases,
      reference: cases.filter((name) => name !== "rest-call"),
      "bare-read": ["mcp-call", "rest-call"],
      ours: cases
    }
    for (const [server, served] of Object.entries(servedBy)) {
      expect(
        result.rows
          .filter((row) => row.server === server)
          .map((row) => row.case)
          .sort()
      ).toEqual([...served].sort())
    }
    for (const row of result.rows) {
      expect(row.requests, `${row.server} ${row.case}`).toBeGreaterThan(0)
      expect(row.errors, `${row.server} ${row.case}`).toBe(0)
    }
    for (const row of result.rows.filter((r) => r.server === "ours" || r.server === "bare-read")) {
      expect(row.overCeiling).toBeGreaterThan(0)
      expect(row.overReference).toBeGreaterThan(0)
    }
    // Webhook delivery: the drain on loopback, and the one through the relay with a network's round trip.
    expect(result.webhooks.map((row) => row.rttMs)).toEqual([0, 20])
    for (const row of result.webhooks) expect(row.delivered, `RTT ${row.rttMs}`).toBe(row.events * row.webhooks)
    expect(existsSync(join(scratch, "RESULTS.md"))).toBe(true)
  })
})
