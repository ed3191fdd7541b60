#!/usr/bin/env node
// Part of `npm run build`: @svc/server's PGlite seed, a migrated empty database that `svc serve` and `makeSvc`
// unpack into a new DATA_DIR instead of running initdb and every migration (PGlite opens a new folder in ~1.4 s instead of ~6 s).
// It is PGlite's own `dumpDataDir`, gzipped, of a database made by the built adapters' migrations, so it is made
// again only when those migrations or the PGlite version change (the stamp beside it says which). Migrations add no
// rows, so the seed holds nothing of anyone's: every database made from it gets its own keys and secrets at start.
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"

const root = fileURLToPath(new URL("..", import.meta.url))
const migrationsDir = join(root, "packages/adapters/dist/sql/migrations")
const out = join(root, "packages/server/dist")
const seedFile = join(out, "pglite-seed.tar.gz")
const stampFile = join(out, "pglite-seed.json")

const pgliteVersion = JSON.parse(
  readFileSync(join(root, "node_modules/@electric-sql/pglite/package.json"), "utf8")
).version
const hash = createHash("sha256").update(`pglite ${pgliteVersion}\n`)
for (const file of readdirSync(migrationsDir)
  .filter((name) => name.endsWith(".js"))
  .sort()) {
  hash.update(`${file}\n`).update(readFileSync(join(migrationsDir, file)))
}
const stamp = { pglite: pgliteVersion, migrations: hash.digest("hex") }

const current = existsSync(stampFile) && existsSync(seedFile) ? readFileSync(stampFile, "utf8") : ""
if (current.trim() !== JSON.stringify(stamp)) {
  const started = Date.now()
  const { Effect, Layer } = await import("effect")
  const Sql = await import("../packages/adapters/dist/sql/index.js")
  const Pglite = await import("../packages/adapters/dist/sql/pglite.js")
  const dump = Effect.flatMap(Pglite.PgliteClient, (client) => client.dump).pipe(
    Effect.provide(Sql.migrationsLayer(Sql.migrations).pipe(Layer.provideMerge(Pglite.layer())))
  )
  const blob = await Effect.runPromise(dump)
  mkdirSync(out, { recursive: true })
  // Written aside and renamed, so a build stopped half-way never leaves a torn seed under the served name.
  writeFileSync(`${seedFile}.tmp`, gzipSync(Buffer.from(await blob.arrayBuffer())))
  renameSync(`${seedFile}.tmp`, seedFile)
  writeFileSync(stampFile, `${JSON.stringify(stamp)}\n`)
  console.log(`made the PGlite seed (${Date.now() - started} ms)`)
}
