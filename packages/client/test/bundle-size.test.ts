/**
 * The Promise entry of `@svc/client` as a browser app ships it: bundled by esbuild for the browser, minified and
 * gzipped. It must stay within its size budget and pull in nothing of the server side: no `node:` module, no
 * Effect, no other svc package, no database driver.
 */
import { relative, resolve, sep } from "node:path"
import { gzipSync } from "node:zlib"
import { describe, expect, it } from "@effect/vitest"
import { build, type Metafile } from "esbuild"

const BUDGET_BYTES = 25 * 1024
const root = resolve(import.meta.dirname, "../../..")
const entry = resolve(import.meta.dirname, "../src/index.ts")

// What the entry must never reach: the server's runtime and everything it is built on (its own package aside).
const FORBIDDEN = [/^node:/, /^effect$/, /^@effect\//, /^@svc\/(?!client$)/, /^pg$/, /^pg-/, /^@electric-sql\/pglite$/]

/** The package an esbuild input belongs to: the npm package under `node_modules`, `@svc/<x>` for a workspace package. */
const packageOf = (input: string): string => {
  const path = input.split(sep).join("/")
  if (path.startsWith("node:")) return path
  const inModules = path.lastIndexOf("node_modules/")
  if (inModules !== -1) {
    const [scope = "", name = ""] = path.slice(inModules + "node_modules/".length).split("/")
    return scope.startsWith("@") ? `${scope}/${name}` : scope
  }
  const workspace = /^packages\/([^/]+)\//.exec(relative(root, resolve(root, path)).split(sep).join("/"))
  return workspace === null ? path : `@svc/${workspace[1]}`
}

const bundle = async () => {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent"
  })
  const output = result.outputFiles[0]
  if (output === undefined) throw new Error("esbuild wrote no output")
  return { code: output.contents, metafile: result.metafile satisfies Metafile }
}

describe("the @svc/client Promise entry, bundled for the browser", () => {
  it("is at most 25 KB minified and gzipped", async () => {
    const { code } = await bundle()
    const gzipped = gzipSync(code, { level: 9 }).byteLength
    console.log(`@svc/client: ${code.byteLength} bytes minified, ${gzipped} bytes gzipped (budget ${BUDGET_BYTES})`)
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES)
  })

  it("bundles only the client's own sources and browser-safe libraries", async () => {
    const { metafile } = await bundle()
    const inputs = Object.keys(metafile.inputs)
    const imported = Object.values(metafile.inputs).flatMap((input) => input.imports.map((i) => i.path))
    const packages = new Set([...inputs, ...imported].map(packageOf))
    expect([...packages].filter((name) => FORBIDDEN.some((pattern) => pattern.test(name)))).toEqual([])
    // The entry's own files are there: an empty bundle would pass the checks above.
    expect(packages).toContain("@svc/client")
  })
})
