/**
 * What an adopter pays before the first call (issue 38's targets): the install of `@svc/core` and `@svc/adapters`
 * with `pg` from their packed tarballs, the time `svc serve` takes to listen on an empty PGlite folder and on
 * PostgreSQL, and its resident memory just after start and once idle. Prints one table; `npm run bench:footprint`.
 *
 * PostgreSQL is measured when `DATABASE_URL` is set (a schema of its own is made and dropped). The install needs the
 * npm registry (or its cache), as `npm ci` does.
 */
import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { freePort } from "./processes.js"
import { repoRoot } from "./settings.js"

/** Issue 38's targets, and issue 41's for the embedded database at rest. */
const TARGETS = { installMb: 100, startSeconds: 4, idleMb: 150, embeddedIdleMb: 300 } as const
/** When memory is read after listening: just after start, and once V8 has settled an idle process's heap. */
const RIGHT_AFTER_MS = 5_000
/**
 * V8 gives an idle process's start-up garbage back by itself, some 20–25 s after the last allocation (its memory
 * reducer): before that, resident memory still counts the pages start-up filled (svc on PostgreSQL, this machine:
 * 171 MB at 5 s, 128 MB from 26 s on). Read well after, it is the process at rest.
 */
const SETTLED_MS = 45_000

const megabytes = (bytes: number) => bytes / 1024 / 1024

/** Bytes under `dir`, following no links. */
const sizeOf = (dir: string): number => {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) total += sizeOf(path)
    else if (entry.isFile()) total += statSync(path).size
  }
  return total
}

/** The packed core and adapters installed with `pg` in a scratch project: the size of its node_modules. */
const installSize = (): number => {
  const scratch = mkdtempSync(join(tmpdir(), "svc-footprint-"))
  try {
    for (const name of ["core", "adapters"]) {
      execFileSync("npm", ["pack", "--pack-destination", scratch], {
        cwd: join(repoRoot, "packages", name),
        stdio: "ignore"
      })
    }
    const tarballs = readdirSync(scratch).filter((file) => file.endsWith(".tgz"))
    execFileSync("npm", ["init", "-y"], { cwd: scratch, stdio: "ignore" })
    execFileSync("npm", ["install", "--no-audit", "--no-fund", ...tarballs.map((file) => `./${file}`), "pg"], {
      cwd: scratch,
      stdio: "ignore"
    })
    return sizeOf(join(scratch, "node_modules"))
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

const residentBytes = (pid: number | undefined): number => {
  const status = execFileSync("cat", [`/proc/${pid}/status`]).toString()
  return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0) * 1024
}

/**
 * Starts `svc serve` with `env`: milliseconds until it listens, and its resident memory 5 s after, and (with
 * `settle`) once settled.
 */
const startAndIdle = async (env: Record<string, string>, settle: boolean) => {
  const port = await freePort()
  const started = Date.now()
  // The database is the one `env` names: a DATABASE_URL of this shell would win over a DATA_DIR.
  const { DATABASE_URL: _shell, DATA_DIR: _dir, ...inherited } = process.env
  const child = spawn(process.execPath, [join(repoRoot, "packages/server/bin/svc.mjs"), "serve"], {
    env: { ...inherited, ...env, PORT: String(port), SVC_BOOTSTRAP: "false" }
  })
  let output = ""
  const listening = await new Promise<number>((done, fail) => {
    const look = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes("svc listening on")) done(Date.now() - started)
    }
    child.stdout.on("data", look)
    child.stderr.on("data", look)
    child.once("exit", (code) => fail(new Error(`svc serve ended with ${code}: ${output}`)))
  })
  await new Promise((done) => setTimeout(done, RIGHT_AFTER_MS))
  const rightAfterBytes = residentBytes(child.pid)
  if (settle) await new Promise((done) => setTimeout(done, SETTLED_MS - RIGHT_AFTER_MS))
  const settledBytes = settle ? residentBytes(child.pid) : rightAfterBytes
  child.removeAllListeners("exit")
  await new Promise((done) => {
    child.once("exit", done)
    child.kill("SIGTERM")
  })
  return { listeningMs: listening, rightAfterBytes, settledBytes }
}

const rows: Array<readonly [string, string, string]> = []
const row = (what: string, value: string, target: string) => {
  rows.push([what, value, target])
  console.log(`${what}: ${value} (target ${target})`)
}

row("install: core + adapters + pg", `${megabytes(installSize()).toFixed(0)} MB`, `≤ ${TARGETS.installMb} MB`)

const folder = mkdtempSync(join(tmpdir(), "svc-footprint-data-"))
try {
  const embedded = await startAndIdle({ DATA_DIR: folder }, true)
  row(
    "start, PGlite on an empty folder",
    `${(embedded.listeningMs / 1000).toFixed(1)} s`,
    `≤ ${TARGETS.startSeconds} s`
  )
  row("memory 5 s after start, PGlite", `${megabytes(embedded.rightAfterBytes).toFixed(0)} MB`, "—")
  row(
    "idle memory (45 s after start), PGlite",
    `${megabytes(embedded.settledBytes).toFixed(0)} MB`,
    `≤ ${TARGETS.embeddedIdleMb} MB`
  )
} finally {
  rmSync(folder, { recursive: true, force: true })
}

const url = process.env.DATABASE_URL
if (url !== undefined && url !== "") {
  const schema = `footprint_${Date.now()}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  try {
    const inSchema = new URL(url)
    inSchema.searchParams.set("options", `-c search_path=${schema}`)
    const fresh = await startAndIdle({ DATABASE_URL: inSchema.toString() }, false)
    row("start, PostgreSQL (migrating)", `${(fresh.listeningMs / 1000).toFixed(1)} s`, "—")
    const again = await startAndIdle({ DATABASE_URL: inSchema.toString() }, true)
    row("start, PostgreSQL (migrated)", `${(again.listeningMs / 1000).toFixed(1)} s`, "—")
    row("memory 5 s after start, PostgreSQL", `${megabytes(again.rightAfterBytes).toFixed(0)} MB`, "—")
    row(
      "idle memory (45 s after start), PostgreSQL",
      `${megabytes(again.settledBytes).toFixed(0)} MB`,
      `≤ ${TARGETS.idleMb} MB`
    )
  } finally {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`)
    await admin.end()
  }
} else {
  console.log("PostgreSQL: set DATABASE_URL to measure its start and idle memory")
}

console.log("\n| measure | this machine | target |\n|---|---|---|")
for (const [what, value, target] of rows) console.log(`| ${what} | ${value} | ${target} |`)
