import { randomUUID } from "node:crypto"
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { BUNDLE_RUNNING, bundleSources, defaultBundleDir } from "../bin/bundle-ts.mjs"

// Sources outside the repository (esbuild never resolves packages: they stay imports), bundled into a directory
// beside the real one, so the bundle finds `effect` in node_modules as `svc`'s own bundle does.
const bundles = join(defaultBundleDir, "..", `svc-test-${randomUUID()}`)
const sources = await mkdtemp(join(tmpdir(), "svc-bundle-"))
afterAll(() => Promise.all([rm(bundles, { recursive: true, force: true }), rm(sources, { recursive: true })]))

const writeSources = async (files: Record<string, string>) => {
  const dir = await mkdtemp(join(sources, "src-"))
  await Promise.all(Object.entries(files).map(([name, text]) => writeFile(join(dir, name), text)))
  return (name: string) => pathToFileURL(join(dir, name))
}

interface Fixture {
  readonly value: number
  readonly fail: () => string
  readonly ran: ReadonlyArray<string>
}

describe("the start-up bundle of svc (bin/bundle-ts.mjs)", () => {
  it("bundles our TypeScript, keeps packages as imports, maps stack traces to the sources and deletes its files", async () => {
    const source = await writeSources({
      "main.ts": [
        'import { helper } from "./helper.js"',
        "export const value: number = helper(2)",
        "export const fail = (): string => {",
        '  throw new Error("boom")',
        "}",
        "export const ran: ReadonlyArray<string> = [typeof import.meta.url]",
        ""
      ].join("\n"),
      "helper.ts": [
        'import { Option } from "effect"',
        "export const helper = (n: number): number => Option.getOrElse(Option.some(n * 21), () => 0)",
        ""
      ].join("\n")
    })
    const bundle = await bundleSources(source("main.ts"), bundles)
    if (bundle === undefined) throw new Error("the test directory should take a bundle")
    expect(bundle.url.startsWith(pathToFileURL(bundles).href)).toBe(true)

    // The banner reports the start of the bundle's own code, after Node has read it and its map.
    let ran = 0
    Reflect.set(globalThis, BUNDLE_RUNNING, () => {
      ran += 1
    })
    const sourceMaps = process.sourceMapsEnabled
    process.setSourceMapsEnabled(true)
    let fixture: Fixture
    try {
      fixture = (await import(bundle.url)) as Fixture
    } finally {
      process.setSourceMapsEnabled(sourceMaps)
      Reflect.deleteProperty(globalThis, BUNDLE_RUNNING)
    }
    expect(ran).toBe(1)
    expect(fixture.value).toBe(42)
    expect(fixture.ran).toEqual(["string"])
    const stack = (() => {
      try {
        return fixture.fail()
      } catch (error) {
        return error instanceof Error ? (error.stack ?? "") : ""
      }
    })()
    expect(stack).toContain(`${source("main.ts").pathname}:4:`)

    expect((await readdir(bundles)).length).toBe(2)
    await bundle.release()
    expect(await readdir(bundles)).toEqual([])
  })

  it("answers undefined when the directory cannot be written, so svc falls back to module hooks", async () => {
    const source = await writeSources({ "main.ts": "export const one: number = 1\n" })
    const file = join(sources, "a-file")
    await writeFile(file, "not a directory")
    expect(await bundleSources(source("main.ts"), join(file, "cache"))).toBeUndefined()
  })

  it("fails with esbuild's message on a source it cannot compile, and writes nothing", async () => {
    const source = await writeSources({ "main.ts": "export const broken = (: number => 1\n" })
    const dir = join(bundles, "broken")
    await expect(bundleSources(source("main.ts"), dir)).rejects.toThrow(/main\.ts:1:/)
    expect(await readdir(dir)).toEqual([])
  })

  it("sweeps bundles a killed start left behind, and only old ones", async () => {
    const source = await writeSources({ "main.ts": "export const one: number = 1\n" })
    const dir = join(bundles, "sweep")
    await mkdir(dir, { recursive: true })
    const old = join(dir, "svc-1-old.mjs")
    const recent = join(dir, "svc-2-recent.mjs")
    const other = join(dir, "notes.txt")
    await Promise.all([old, `${old}.map`, recent, other].map((path) => writeFile(path, "")))
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000)
    await Promise.all([old, `${old}.map`, other].map((path) => utimes(path, twoHoursAgo, twoHoursAgo)))

    const bundle = await bundleSources(source("main.ts"), dir)
    await bundle?.release()
    expect((await readdir(dir)).sort()).toEqual(["notes.txt", "svc-2-recent.mjs"])
  })
})
