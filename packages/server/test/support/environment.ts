/**
 * A fresh database for a test that runs the real `svc` process: a temporary PGlite directory, or (with
 * TEST_DATABASE_URL) a new PostgreSQL schema reached through search_path. Either holds no data; the PGlite one is a
 * copy of the run's migrated template (see `pglite-template.ts`), so the server skips initdb and the migrations.
 */
import { execFile } from "node:child_process"
import { randomBytes } from "node:crypto"
import { cpSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { SqlClient } from "@effect/sql"
import { DatabaseConfig, databaseLayer } from "@svc/adapters/sql"
import { afterAll, beforeAll, expect, inject } from "@effect/vitest"
import { Effect } from "effect"
import { runCommand } from "../../src/cli/main.js"

const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || undefined

// Provided by the adapters' global set-up (`packages/adapters/test/support/pglite-template.ts`, which declares it
// for that package); repeated here because this package's type check does not see the adapters' test files.
declare module "vitest" {
  export interface ProvidedContext {
    readonly pgliteDataDirTemplate: string | undefined
  }
}

/** The engine the process tests run on, for test titles. */
export const engineName = postgresUrl === undefined ? "PGlite" : "PostgreSQL"

const admin = (url: string, statement: string) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
      Effect.provide(databaseLayer(DatabaseConfig.Postgres({ url })))
    )
  )

/**
 * Environment variables naming a new database with no data in it, and how to throw it away. With `unmigrated`,
 * a PGlite directory starts empty too (as a PostgreSQL schema always does), for tests of what migrating does.
 */
export const freshDatabase = async (
  options: { readonly unmigrated?: boolean } = {}
): Promise<{ env: Record<string, string>; dispose: () => Promise<void> }> => {
  if (postgresUrl === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "svc-test-"))
    const template = options.unmigrated ? undefined : inject("pgliteDataDirTemplate")
    if (template !== undefined) cpSync(template, dir, { recursive: true })
    return { env: { DATA_DIR: dir }, dispose: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const schema = `test_${randomBytes(8).toString("hex")}`
  await admin(postgresUrl, `CREATE SCHEMA ${schema}`)
  const url = new URL(postgresUrl)
  url.searchParams.set("options", `-c search_path=${schema}`)
  return {
    env: { DATABASE_URL: url.toString() },
    dispose: () => admin(postgresUrl, `DROP SCHEMA ${schema} CASCADE`).then(() => undefined)
  }
}

const bin = resolve(import.meta.dirname, "../../bin/svc.mjs")

/** Runs `svc <args>` as a real process and answers its exit code and output. */
export const svc = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...process.env, DATABASE_URL: "", ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
        done({ code, stdout, stderr })
      }
    )
  })

/**
 * Runs `svc <args>` in this process: the `runCommand` the binary runs, with `env` as its whole environment and
 * its output caught. Each command still opens and closes the database as the binary does; what it saves is the
 * start of a process (seconds of module loading each), so most CLI tests run this way and a few spawn `svc`.
 */
export const svcHere = async (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const stdout: Array<string> = []
  const stderr: Array<string> = []
  const code = await runCommand(args, {
    env,
    stdout: (line) => stdout.push(`${line}\n`),
    stderr: (line) => stderr.push(`${line}\n`)
  })
  return { code, stdout: stdout.join(""), stderr: stderr.join("") }
}

/** Runs `svc <args> --json` in this process, checks that it printed no stack trace, and parses what it printed. */
export const svcJson = async (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const result = await svcHere([...args, "--json"], env)
  expect(result.stderr).not.toMatch(/Error:|at .*\.ts:\d+/)
  return { ...result, body: result.stdout.trim() ? JSON.parse(result.stdout) : undefined }
}

/**
 * A fresh database for the whole test file, made before its tests and thrown away after them; the answer
 * reads its environment (plus `extra`) once it exists.
 */
export const useFreshDatabase = (
  extra: Record<string, string> = {},
  options: { readonly unmigrated?: boolean } = {}
) => {
  let env: Record<string, string> = {}
  let dispose = async () => {}
  beforeAll(async () => {
    const database = await freshDatabase(options)
    env = { ...database.env, ...extra }
    dispose = database.dispose
  })
  afterAll(() => dispose())
  return () => env
}
