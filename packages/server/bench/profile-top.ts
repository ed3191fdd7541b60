/**
 * Prints the top entries of a V8 CPU profile (`node --cpu-prof`): self time per function, and the time
 * spent per package. `npx tsx packages/server/bench/profile-top.ts <file.cpuprofile> [N] [skip seconds]`: the
 * skip leaves out start-up (module loading, migrations), so what remains is the server under load.
 */
import { readFileSync } from "node:fs"

interface ProfileNode {
  readonly id: number
  readonly callFrame: {
    readonly functionName: string
    readonly url: string
    readonly lineNumber: number
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
  const key = `${frame.functionName || "(anonymous)"} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`
  self.set(key, (self.get(key) ?? 0) + delta)
  // Inclusive time per function and per package area, each counted once per sample.
  const seenFn = new Set<string>()
  for (let at: number | undefined = sample; at !== undefined; at = parent.get(at)) {
    const f = byId.get(at)?.callFrame
    if (f === undefined || f.url === "" || f.url.startsWith("node:")) continue
    const name = `${f.functionName || "(anonymous)"} ${shortUrl(f.url)}:${f.lineNumber + 1}`
    if (seenFn.has(name)) continue
    seenFn.add(name)
    inclusiveFn.set(name, (inclusiveFn.get(name) ?? 0) + delta)
  }
  const seen = new Set<string>()
  for (let at: number | undefined = sample; at !== undefined; at = parent.get(at)) {
    const url = shortUrl(byId.get(at)?.callFrame.url ?? "")
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
