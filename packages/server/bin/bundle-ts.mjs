// Bundles our TypeScript sources into one ES module at start, so `svc` runs them with no build step and without
// Node's module customization hooks. The hooks (tsx, load-ts.mjs) run on a loader thread of their own that stays
// for the life of the process: with a heap and a young generation of its own, and every module's source and
// inline source map kept, `svc serve` took ~70 MB more memory than it does from the bundle.
//
// Only our sources go in; every package is imported from node_modules as usual. The bundle is written in the
// server package's `node_modules/.cache/svc/`, so those imports (and `createRequire(import.meta.url)`) resolve as
// they would from the sources. It is named after its content, so starts with unchanged sources reuse it, and the
// newest few stay on disk with their source maps, so CPU profiles of recent runs can be mapped back to the sources
// (`bench/profile-top.ts` does).
import { createHash, randomUUID } from "node:crypto"
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { build, stop } from "esbuild"
import { compileOptions } from "./esbuild-options.mjs"

/** Where bundles are written by default. */
export const defaultBundleDir = fileURLToPath(new URL("../node_modules/.cache/svc/", import.meta.url))

/** The bundles kept however long ago a start used them (each start touches its own): the newest few. */
export const KEEP_RECENT = 5

/** Any other bundle, and a partial write, is deleted once unused this long; a start reads its file in a second. */
export const UNUSED_FOR_MS = 60 * 60 * 1000

// A bundle's name and the name of a write in progress (left behind only by a process killed while writing).
const BUNDLE_FILE = /^svc-[0-9a-f]{16}\.mjs(\.map)?$/
const PARTIAL_FILE = /^\.svc-.*\.partial$/

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
const codeOf = (error) => (error instanceof Error && "code" in error ? error.code : undefined)
const isUnwritable = (error) => UNWRITABLE.has(codeOf(error))

const modifiedAt = (path) =>
  stat(path).then(
    (info) => info.mtimeMs,
    () => undefined
  )

// Each change of the sources makes a new bundle (~1.3 MB with its map), so only the newest few are kept for the
// CPU profiles of recent runs; a bundle and its map count as one, dated by the module.
const sweep = async (dir, now) => {
  const names = (await readdir(dir).catch(() => [])).filter((name) => BUNDLE_FILE.test(name) || PARTIAL_FILE.test(name))
  const dated = await Promise.all(names.map(async (name) => ({ name, at: await modifiedAt(join(dir, name)) })))
  const recent = new Set(
    dated
      .filter(({ name, at }) => name.endsWith(".mjs") && at !== undefined)
      .sort((a, b) => b.at - a.at)
      .slice(0, KEEP_RECENT)
      .map(({ name }) => name)
  )
  await Promise.all(
    dated
      .filter(({ name, at }) => at !== undefined && now - at > UNUSED_FOR_MS && !recent.has(name.replace(/\.map$/, "")))
      .map(({ name }) => rm(join(dir, name), { force: true }))
  )
}

// Written under a temporary name and renamed into place, so a start running at the same moment never reads half a
// file; two starts writing the same bundle write the same bytes.
const writeWhole = async (dir, name, contents) => {
  const partial = join(dir, `.${name}.${randomUUID()}.partial`)
  await writeFile(partial, contents, { flag: "wx" })
  await rename(partial, join(dir, name))
}

/**
 * Bundles the TypeScript module `entry` (a file URL) and what it imports of our sources into `dir`, and answers
 * the bundle's URL; `undefined` when `dir` cannot be written. A source esbuild cannot compile rejects with
 * esbuild's message. Of the bundles no start has used for an hour, all but the newest few are deleted.
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
    ...compileOptions,
    // Paths to the sources, not copies of them: Node keeps a loaded map in memory.
    sourcemap: "external",
    sourcesContent: false,
    plugins: [packagesExternal],
    logLevel: "silent"
  }).finally(
    // esbuild's service process (~50 MB) would otherwise live as long as the server; a later build starts it again.
    () => stop()
  )
  const code = result.outputFiles.find((file) => file.path.endsWith(".mjs"))
  const map = result.outputFiles.find((file) => file.path.endsWith(".mjs.map"))
  if (code === undefined || map === undefined) throw new Error("esbuild wrote no bundle")
  const name = `svc-${createHash("sha256").update(code.contents).update(map.contents).digest("hex").slice(0, 16)}.mjs`
  const path = join(dir, name)
  const now = Date.now()
  // Reused when both files are there and can be touched (a sweep by another start may just have taken them).
  const reused = () => {
    const touched = new Date(now)
    return Promise.all([utimes(path, touched, touched), utimes(`${path}.map`, touched, touched)]).then(
      () => true,
      (error) => {
        if (codeOf(error) === "ENOENT") return false
        throw error
      }
    )
  }
  try {
    if (!(await reused())) {
      // The map first: a start that finds the module finds its map too.
      await writeWhole(dir, `${name}.map`, map.contents)
      await writeWhole(dir, name, `${code.text}//# sourceMappingURL=${name}.map\n`)
    }
  } catch (error) {
    if (isUnwritable(error)) return undefined
    throw error
  }
  await sweep(dir, now)
  return pathToFileURL(path).href
}
