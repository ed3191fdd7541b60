/** A fresh, empty database per engine for one bench run, thrown away afterwards. */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadPgPool } from "./pg.js"
import type { Engine } from "./settings.js"

/** A PGlite directory, or a PostgreSQL URL. */
export type DataLocation = { readonly dataDir: string } | { readonly url: string }

/** Where a server of the bench keeps its data, and how to drop it. */
export interface BenchDatabase {
  readonly engine: Engine
  /** The environment naming it to `svc` (`DATA_DIR`, or `DATABASE_URL` with the bench schema on the search path). */
  readonly env: Record<string, string>
  /** For the reference: its own PGlite directory (PGlite is one process's), or the same PostgreSQL schema. */
  readonly reference: DataLocation
  /** For the bare read: likewise. */
  readonly bareRead: DataLocation
  readonly dispose: () => Promise<void>
}

const admin = async (url: string, statement: string) => {
  const Pool = loadPgPool()
  const pool = new Pool({ connectionString: url, max: 1 })
  try {
    await pool.query(statement)
  } finally {
    await pool.end()
  }
}

/**
 * PGlite: three new temporary directories (ours, the reference's, the bare read's). PostgreSQL: a new schema
 * `bench_<random>` reached through `?options=-c search_path=…`, so tests sharing the database never see it.
 */
export const freshDatabase = async (engine: Engine, postgresUrl: string | undefined): Promise<BenchDatabase> => {
  if (engine === "pglite") {
    const ours = mkdtempSync(join(tmpdir(), "svc-bench-"))
    const reference = mkdtempSync(join(tmpdir(), "svc-bench-ref-"))
    const bareRead = mkdtempSync(join(tmpdir(), "svc-bench-bare-"))
    return {
      engine,
      env: { DATA_DIR: ours },
      reference: { dataDir: reference },
      bareRead: { dataDir: bareRead },
      dispose: async () => {
        for (const dir of [ours, reference, bareRead]) rmSync(dir, { recursive: true, force: true })
      }
    }
  }
  if (postgresUrl === undefined) throw new Error("the postgres engine needs DATABASE_URL")
  const schema = `bench_${randomBytes(6).toString("hex")}`
  await admin(postgresUrl, `CREATE SCHEMA ${schema}`)
  const url = new URL(postgresUrl)
  url.searchParams.set("options", `-c search_path=${schema}`)
  return {
    engine,
    env: { DATABASE_URL: url.toString() },
    reference: { url: url.toString() },
    bareRead: { url: url.toString() },
    dispose: () => admin(postgresUrl, `DROP SCHEMA ${schema} CASCADE`)
  }
}
