import { randomUUID } from "node:crypto"
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { bundleSources, defaultBundleDir, KEEP_RECENT, UNUSED_FOR_MS } from "../bin/bundle-ts.mjs"

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

const bundleIn = async (entry: URL, dir: string): Promise<string> => {
  const url = await bundleSources(entry, dir)
  if (url === undefined) throw new Error(`${dir} should take a bundle`)
  return url
}

const modifiedAt = async (url: string) => (await stat(fileURLToPath(url))).mtimeMs

interface Fixture {
  readonly value: number
  readonly fail: () => string
}

describe("the start-up bundle of svc (bin/bundle-ts.mjs)", () => {
  it("bundles our TypeScript, keeps packages as imports, and maps stack traces to the sources", async () => {
    const source = await writeSources({
      "main.ts": [
        'import { helper } from "./helper.js"',
        "export const value: number = helper(2)",
        "export const fail = (): string => {",
        '  throw new Error("boom")',
        "}",
        ""
      ].join("\n"),
      "helper.ts": [
        'import { Option } from "effect"',
        "export const helper = (n: number): number => Option.getOrElse(Option.some(n * 21), () => 0)",
        ""
      ].join("\n")
    })
    const dir = join(bundles, "fixture")
    const url = await bundleIn(source("main.ts"), dir)
    expect(url).toMatch(new RegExp(`^${pathToFileURL(dir).href}/svc-[0-9a-f]{16}\\.mjs$`))
    expect((await readdir(dir)).sort()).toEqual([url.split("/").pop(), `${url.split("/").pop()}.map`])

    const sourceMaps = process.sourceMapsEnabled
    process.setSourceMapsEnabled(true)
    let fixture: Fixture
    try {
      fixture = (await import(url)) as Fixture
    } finally {
      process.setSourceMapsEnabled(sourceMaps)
    }
    expect(fixture.value).toBe(42)
    const stack = (() => {
      try {
        return fixture.fail()
      } catch (error) {
        return error instanceof Error ? (error.stack ?? "") : ""
      }
    })()
    expect(stack).toContain(`${source("main.ts").pathname}:4:`)
  })

  it("reuses the bundle of unchanged sources (touching it), and writes another when they change", async () => {
    const source = await writeSources({ "main.ts": "export const one: number = 1\n" })
    const dir = join(bundles, "reuse")
    const first = await bundleIn(source("main.ts"), dir)
    const anHourAgo = new Date(Date.now() - 60 * 60 * 1000)
    await Promise.all([first, `${first}.map`].map((url) => utimes(fileURLToPath(url), anHourAgo, anHourAgo)))
    const again = await bundleIn(source("main.ts"), dir)
    expect(again).toBe(first)
    expect(await modifiedAt(again)).toBeGreaterThan(anHourAgo.getTime() + 30 * 60 * 1000)
    expect(await modifiedAt(`${again}.map`)).toBeGreaterThan(anHourAgo.getTime() + 30 * 60 * 1000)

    await writeFile(fileURLToPath(source("main.ts")), "export const two: number = 2\n")
    const changed = await bundleIn(source("main.ts"), dir)
    expect(changed).not.toBe(again)
    expect((await import(changed)) as unknown).toEqual(expect.objectContaining({ two: 2 }))
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

  it("keeps the newest bundles and any used within the hour, and deletes older ones and old partial writes", async () => {
    const source = await writeSources({ "main.ts": "export const one: number = 1\n" })
    const dir = join(bundles, "sweep")
    await mkdir(dir, { recursive: true })
    const hour = 60 * 60 * 1000
    const bundle = (n: number) => `svc-${String(n).padStart(16, "0")}.mjs`
    // Bundle 0 was used ten minutes ago; 1, 2, … an hour and more apart, the oldest last.
    const ages = [10 * 60 * 1000, ...Array.from({ length: KEEP_RECENT + 1 }, (_, i) => (i + 2) * hour)]
    const files = ages.flatMap((age, n) => [
      { name: bundle(n), age },
      { name: `${bundle(n)}.map`, age }
    ])
    files.push({ name: ".svc-partial.mjs.x.partial", age: 2 * hour }, { name: "notes.txt", age: 100 * hour })
    await Promise.all(files.map(({ name }) => writeFile(join(dir, name), "")))
    await Promise.all(
      files.map(({ name, age }) => utimes(join(dir, name), new Date(Date.now() - age), new Date(Date.now() - age)))
    )
    expect(UNUSED_FOR_MS).toBe(hour)

    const url = await bundleIn(source("main.ts"), dir)
    const name = url.split("/").pop() ?? ""
    // The new bundle and the KEEP_RECENT - 1 next newest stay (bundle 0 among them), with their maps.
    const kept = [name, ...Array.from({ length: KEEP_RECENT - 1 }, (_, n) => bundle(n))]
    expect((await readdir(dir)).sort()).toEqual([...kept.flatMap((file) => [file, `${file}.map`]), "notes.txt"].sort())
  })
})
