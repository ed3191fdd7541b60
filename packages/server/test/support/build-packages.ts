/**
 * Vitest global set-up: builds the four packages (`npm run build`: `tsc -b tsconfig.build.json`, and what tsc left
 * of deleted sources removed) before any test file runs.
 * Tests read our sources (the `@svc/source` export condition), but the ones that run `svc`, or pack the packages,
 * run the compiled dist/; building here means they can never pass on a dist older than the sources. The build is
 * incremental: when nothing changed it only compares the sources with its build info.
 */
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { resolve } from "node:path"

const root = resolve(import.meta.dirname, "../../../..")
const build = resolve(root, "scripts/build.mjs")
const entries = ["core", "adapters", "client", "server"].map((name) => resolve(root, "packages", name, "dist/index.js"))

// Each vitest project runs its global set-up in turn in this one process; the first build serves them all.
const BUILT = "SVC_TEST_PACKAGES_BUILT"

export default async function buildPackages(): Promise<void> {
  if (process.env[BUILT] === "1") return
  const { failed, output } = await new Promise<{ failed: boolean; output: string }>((done) =>
    execFile(process.execPath, [build], { cwd: root }, (error, stdout, stderr) =>
      done({ failed: error !== null, output: `${stdout}${stderr}` })
    )
  )
  const missing = entries.filter((entry) => !existsSync(entry))
  if (missing.length > 0) throw new Error(`npm run build emitted no ${missing.join(", ")}:\n${output}`)
  // Type errors still emit JavaScript, so the tests run; `npm run typecheck` is where they fail.
  if (failed) {
    const errors = output.split("\n").filter((line) => line.includes("error TS"))
    process.stderr.write(
      `npm run build reported ${errors.length} type errors (dist/ was emitted):\n${errors.slice(0, 5).join("\n")}\n`
    )
  }
  process.env[BUILT] = "1"
}
