/**
 * Prints the top entries of a V8 CPU profile (`node --cpu-prof`): self time per function, and the time
 * spent per package. `npx tsx packages/server/bench/profile-top.ts <file.cpuprofile> [N] [skip seconds]`: the
 * skip leaves out start-up (module loading, migrations), so what remains is the server under load. Positions in
 * our compiled JavaScript (each package's `dist/`) are mapped back to the TypeScript sources through the source
 * map tsc writes beside each file.
 */
import { existsSync, readFileSync } from "node:fs"
import { SourceMap } from "node:module"
import { dirname, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

interface ProfileNode {
  readonly id: number
  readonly callFrame: {
    readonly functionName: string
    readonly url: string
    readonly lineNumber: number
    readonly columnNumber: number
  }
  readonly children?: ReadonlyArray<number>
}

interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, "")
    .replace(/^.*\/node_modules\//, "")
    .replace(/^.*\/packages\//, "packages/")

// The source map beside one of our compiled files, read once per file; undefined for every other script.
const maps = new Map<string, SourceMap | undefined>()
const mapOf = (url: string): SourceMap | undefined => {
  if (maps.has(url)) return maps.get(url)
  const path =
    url.startsWith("file:") && /\/packages\/[^/]+\/dist\/.*\.js$/.test(url) && !url.includes("/node_modules/")
      ? `${fileURLToPath(url)}.map`
      : undefined
  const map = path !== undefined && existsSync(path) ? new SourceMap(JSON.parse(readFileSync(path, "utf8"))) : undefined
  maps.set(url, map)
  return map
}

/** Where a frame's function is in the sources: mapped through its file's source map when it has one. */
const placeOf = (frame: ProfileNode["callFrame"]): { readonly url: string; readonly line: number } => {
  const entry = mapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber)
  if (entry === undefined || !("originalSource" in entry)) return { url: frame.url, line: frame.lineNumber + 1 }
  const source = entry.originalSource.startsWith("file:")
    ? entry.originalSource
    : pathToFileURL(resolve(dirname(fileURLToPath(frame.url)), entry.originalSource)).href
  return { url: source, line: entry.originalLine + 1 }
}
const names = new WeakMap<ProfileNode["callFrame"], string>()
const frameName = (frame: ProfileNode["callFrame"]): string => {
  const known = names.get(frame)
  if (known !== undefined) return known
  const place = placeOf(frame)
  const name = `${frame.functionName || "(anonymous)"} ${shortUrl(place.url)}:${place.line}`
  names.set(frame, name)
  return name
}

const [file, count = "25", skip = "0"] = process.argv.slice(2)
if (file === undefined) throw new Error("usage: profile-top.ts <file.cpuprofile> [N]")
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const parent = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)

const self = new Map<string, number>()
const inclusiveFn = new Map<string, number>()
const inclusive = new Map<string, number>()
let total = 0
let elapsed = 0
profile.samples.forEach((sample, index) => {
  const delta = profile.timeDeltas[index] ?? 0
  elapsed += delta
  if (elapsed < Number(skip) * 1e6) return
  const node = byId.get(sample)
  // Waiting for the next request is not work: the shares below are of the time the server was busy.
  if (node === undefined || node.callFrame.functionName === "(idle)") return
  total += delta
  const frame = node.callFrame
  const key = frameName(frame)
  self.set(key, (self.get(key) ?? 0) + delta)
  // Inclusive time per function and per package area, each counted once per sample.
  const seenFn = new Set<string>()
  for (let at: number | undefined = sample; at !== undefined; at = parent.get(at)) {
    const f = byId.get(at)?.callFrame
    if (f === undefined || f.url === "" || f.url.startsWith("node:")) continue
    const name = frameName(f)
    if (seenFn.has(name)) continue
    seenFn.add(name)
    inclusiveFn.set(name, (inclusiveFn.get(name) ?? 0) + delta)
  }
  const seen = new Set<string>()
  for (let at: number | undefined = sample; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)?.callFrame
    const url = frame === undefined ? "" : shortUrl(placeOf(frame).url)
    const area = url.startsWith("packages/") ? url.split("/").slice(0, 3).join("/") : url.split("/")[0] || "(native)"
    if (seen.has(area)) continue
    seen.add(area)
    inclusive.set(area, (inclusive.get(area) ?? 0) + delta)
  }
})

const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((us / total) * 100).toFixed(1).padStart(5)} %`
process.stdout.write(`busy ${(total / 1000).toFixed(0)} ms sampled (idle left out)\n\nself time:\n`)
for (const [key, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(count))) {
  process.stdout.write(`${ms(us)}  ${key}\n`)
}
process.stdout.write("\ninclusive time by function (packages and our sources):\n")
for (const [key, us] of [...inclusiveFn.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(count) * 2)) {
  process.stdout.write(`${ms(us)}  ${key}\n`)
}
process.stdout.write("\ninclusive time by package:\n")
for (const [key, us] of [...inclusive.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(count))) {
  process.stdout.write(`${ms(us)}  ${key}\n`)
}
