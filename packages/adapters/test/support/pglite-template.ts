/**
 * Vitest global set-up: on PGlite runs, one in-memory database with every migration applied, dumped to a file once.
 * Each test file's migrated database (`testDatabaseLayer`) starts from that copy instead of running initdb and the
 * migrations again: about half of a fresh database's start, in every file that uses one.
 *
 * The dump is also unpacked once into a data directory, which the tests of the real `svc` process copy for each
 * fresh `DATA_DIR` (`freshDatabase` in the server's test support): a server then starts as it restarts, without
 * initdb and migrations (about 4 s of CPU each). Starting on an empty directory stays covered by the bench smoke
 * test and the PGlite storage tests on disk.
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
    /** The migrated PGlite data directory itself, to copy (never to open); absent on PostgreSQL runs. */
    readonly pgliteDataDirTemplate: string | undefined
  }
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL?.trim()) {
    project.provide("pgliteTemplate", undefined)
    project.provide("pgliteDataDirTemplate", undefined)
    return
  }
  const dump = Effect.flatMap(Pglite.PgliteClient, (client) => client.dump).pipe(
    Effect.provide(migrationsLayer(migrations).pipe(Layer.provideMerge(Pglite.layer())))
  )
  const blob = await Effect.runPromise(dump)
  const dir = mkdtempSync(join(tmpdir(), "svc-pglite-template-"))
  const file = join(dir, "migrated.tar")
  writeFileSync(file, Buffer.from(await blob.arrayBuffer()))
  const dataDir = join(dir, "data")
  // Opened once to unpack the dump into the directory, and closed (a clean shut-down) before anyone copies it.
  await Effect.runPromise(Effect.scoped(Layer.build(Pglite.layer({ dataDir, loadDataDir: blob }))))
  project.provide("pgliteTemplate", file)
  project.provide("pgliteDataDirTemplate", dataDir)
  return () => rmSync(dir, { recursive: true, force: true })
}
