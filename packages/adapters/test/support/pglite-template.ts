/**
 * Vitest global set-up: on PGlite runs, one in-memory database with every migration applied, dumped to a file once.
 * Each test file's migrated database (`testDatabaseLayer`) starts from that copy instead of running initdb and the
 * migrations again: about half of a fresh database's start, in every file that uses one.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import type { TestProject } from "vitest/node"
import { migrationsLayer } from "../../src/sql/database.js"
import { migrations } from "../../src/sql/migrations/index.js"
import * as Pglite from "../../src/sql/pglite.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** The file holding the migrated PGlite data directory; absent on PostgreSQL runs. */
    readonly pgliteTemplate: string | undefined
  }
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL?.trim()) {
    project.provide("pgliteTemplate", undefined)
    return
  }
  const dump = Effect.flatMap(Pglite.PgliteClient, (client) => client.dump).pipe(
    Effect.provide(migrationsLayer(migrations).pipe(Layer.provideMerge(Pglite.layer())))
  )
  const blob = await Effect.runPromise(dump)
  const dir = mkdtempSync(join(tmpdir(), "svc-pglite-template-"))
  const file = join(dir, "migrated.tar")
  writeFileSync(file, Buffer.from(await blob.arrayBuffer()))
  project.provide("pgliteTemplate", file)
  return () => rmSync(dir, { recursive: true, force: true })
}
