// Bundles our TypeScript sources into one ES module at start, so `svc` runs them with no build step and without
// Node's module customization hooks. The hooks (tsx, load-ts.mjs) run on a loader thread of their own that stays
// for the life of the process: with a heap and a young generation of its own, and every module's source and
// inline source map kept, `svc serve` took ~70 MB more memory than it does from the bundle.
//
// Only our sources go in; every package is imported from node_modules as usual. The bundle is written in the
// server package's `node_modules/.cache/svc/`, so those imports (and `createRequire(import.meta.url)`) resolve as
// they would from the sources, and is deleted once it runs: Node has read the module and its map by then.
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { mkdir, readdir, rm, stat, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { build } from "esbuild"

// The options esbuild reads from a tsconfig (class field semantics from `target`, `verbatimModuleSyntax`), as tsc
// reads them. No keepNames (tsx forces it on): it wraps every named function, closures made per request included,
// in a call that defines its `name`, and cost the tool server ~5 % of its calls per second in the bench.
const { compilerOptions } = JSON.parse(readFileSync(new URL("../../../tsconfig.base.json", import.meta.url), "utf8"))

/** The function a bundle calls first thing when it runs (its banner), if set: it has been read and compiled. */
export const BUNDLE_RUNNING = Symbol.for("svc/bundle-running")

/** Where bundles are written by default. */
export const defaultBundleDir = fileURLToPath(new URL("../node_modules/.cache/svc/", import.meta.url))

// A bundle left behind by a process killed while loading it; a live start needs its file for a second or two.
const LEFTOVER_AFTER_MS = 60 * 60 * 1000

// Our workspace packages are sources to bundle; every other bare import stays an import of node_modules.
const packagesExternal = {
  name: "packages-external",
  setup(plugins) {
    plugins.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@svc/") ? undefined : { path: args.path, external: true }
    )
  }
}

// Errors that mean the directory cannot take the bundle (a read-only install, say); the caller falls back.
const UNWRITABLE = new Set(["EACCES", "EPERM", "EROFS", "ENOTDIR", "ENOSPC", "EEXIST"])
const isUnwritable = (error) =>
  error instanceof Error && "code" in error && typeof error.code === "string" && UNWRITABLE.has(error.code)

const sweepLeftovers = async (dir, now) => {
  const names = await readdir(dir).catch(() => [])
  await Promise.all(
    names
      .filter((name) => name.startsWith("svc-") && /\.mjs(\.map)?$/.test(name))
      .map(async (name) => {
        const path = join(dir, name)
        const info = await stat(path).catch(() => undefined)
        if (info !== undefined && now - info.mtimeMs > LEFTOVER_AFTER_MS) await rm(path, { force: true })
      })
  )
}

/**
 * Bundles the TypeScript module `entry` (a file URL) and what it imports of our sources into `dir`. Answers the
 * bundle's URL and a `release` that deletes its files (once it runs, see `BUNDLE_RUNNING`), or `undefined` when
 * `dir` cannot be written. A source esbuild cannot compile rejects with esbuild's message.
 */
export const bundleSources = async (entry, dir = defaultBundleDir) => {
  try {
    await mkdir(dir, { recursive: true })
  } catch (error) {
    if (isUnwritable(error)) return undefined
    throw error
  }
  // The output is named after the directory it will live in, so the source map's relative paths are right.
  const result = await build({
    entryPoints: [fileURLToPath(entry)],
    outfile: join(dir, "svc.mjs"),
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node}`,
    tsconfigRaw: { compilerOptions },
    // Paths to the sources, not copies of them: Node keeps a loaded map in memory.
    sourcemap: "external",
    sourcesContent: false,
    plugins: [packagesExternal],
    banner: { js: `globalThis[Symbol.for("svc/bundle-running")]?.();` },
    logLevel: "silent"
  })
  const code = result.outputFiles.find((file) => file.path.endsWith(".mjs"))
  const map = result.outputFiles.find((file) => file.path.endsWith(".mjs.map"))
  if (code === undefined || map === undefined) throw new Error("esbuild wrote no bundle")
  const name = `svc-${process.pid}-${randomUUID()}.mjs`
  const path = join(dir, name)
  const release = () => Promise.all([rm(path, { force: true }), rm(`${path}.map`, { force: true })]).then(() => {})
  try {
    await writeFile(`${path}.map`, map.contents, { flag: "wx" })
    await writeFile(path, `${code.text}//# sourceMappingURL=${name}.map\n`, { flag: "wx" })
  } catch (error) {
    await release()
    if (isUnwritable(error)) return undefined
    throw error
  }
  await sweepLeftovers(dir, Date.now())
  return { url: pathToFileURL(path).href, release }
}
