#!/usr/bin/env node
// `npm run build` (and `npm ci`, through `prepare`): compiles the four packages into their dist/ with
// `tsc -b tsconfig.build.json` (incremental: under a second when nothing changed), then deletes the outputs of
// sources that no longer exist, and makes the server's PGlite seed when the migrations changed. tsc never removes an output, so a deleted or renamed module would otherwise stay in
// dist/ and in every package packed from this checkout.
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const tsc = join(root, "node_modules/typescript/bin/tsc")
const build = spawnSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], { cwd: root, stdio: "inherit" })

// What tsc writes for `src/x.ts`: `dist/x.js`, `dist/x.d.ts` and their maps.
const OUTPUT = /\.(js|d\.ts)(\.map)?$/
for (const name of ["core", "adapters", "client", "server"]) {
  const dist = join(root, "packages", name, "dist")
  if (!existsSync(dist)) continue
  for (const file of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
    if (OUTPUT.test(file) && !existsSync(join(root, "packages", name, "src", file.replace(OUTPUT, ".ts")))) {
      rmSync(join(dist, file))
    }
  }
}
// The server's PGlite seed, made again only when the migrations changed (scripts/pglite-seed.mjs).
const seed =
  build.status === 0
    ? spawnSync(process.execPath, [join(root, "scripts/pglite-seed.mjs")], { cwd: root, stdio: "inherit" })
    : undefined
process.exitCode = build.status === 0 ? (seed?.status ?? 1) : (build.status ?? 1)
