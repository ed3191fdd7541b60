/**
 * Every TypeScript block of the README, the packages' READMEs and docs/ type-checks against the packages' built
 * declarations, as a reader who copies it into a strict project of their own would compile it. A block that only
 * continues another (a line of a larger program) says so on the line above its fence: `<!-- fragment: why -->`.
 */
import { execFile } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"

const root = resolve(import.meta.dirname, "..")
// Under the repository's node_modules, so `@svc/*` and the other packages resolve as in a project that installed them.
const scratch = join(root, "node_modules/.cache/svc-doc-snippets")

interface Block {
  readonly doc: string
  readonly line: number
  readonly code: string
}

const docs = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => `docs/${file}`),
  ...readdirSync(join(root, "packages")).map((name) => `packages/${name}/README.md`)
]

/** The `ts` blocks of a Markdown file, but those marked as fragments, with the line of their fence. */
const blocksOf = (doc: string): ReadonlyArray<Block> => {
  const lines = readFileSync(join(root, doc), "utf8").split("\n")
  const blocks: Block[] = []
  for (let at = 0; at < lines.length; at++) {
    if (lines[at] !== "```ts") continue
    const end = lines.indexOf("```", at + 1)
    if (end === -1) throw new Error(`${doc}:${at + 1}: a ts block is never closed`)
    const fragment = /^<!-- fragment: .+ -->$/.test(lines[at - 1] ?? "")
    if (!fragment) blocks.push({ doc, line: at + 1, code: lines.slice(at + 1, end).join("\n") })
    at = end
  }
  return blocks
}

const typeCheck = (project: string) =>
  new Promise<string>((done) =>
    execFile(
      process.execPath,
      [join(root, "node_modules/typescript/bin/tsc"), "-p", project],
      { cwd: project, timeout: 240_000 },
      (_error, stdout) => done(stdout)
    )
  )

describe("the TypeScript blocks of the docs", { timeout: 300_000 }, () => {
  it("type-check strictly against the packages' declarations, each as a module of its own", async () => {
    const blocks = docs.flatMap((doc) => {
      try {
        return blocksOf(doc)
      } catch (error) {
        if (error instanceof Error && "code" in error && error.code === "ENOENT") return []
        throw error
      }
    })
    expect(blocks.length).toBeGreaterThan(10)
    rmSync(scratch, { recursive: true, force: true })
    mkdirSync(scratch, { recursive: true })
    const names = blocks.map((_, i) => `block${i}.ts`)
    for (const [i, block] of blocks.entries())
      writeFileSync(join(scratch, names[i] ?? ""), `${block.code}\nexport {}\n`)
    writeFileSync(
      join(scratch, "tsconfig.json"),
      JSON.stringify({
        extends: join(root, "tsconfig.base.json"),
        // A snippet may name a value it only shows; everything else is as strict as our own code.
        compilerOptions: { noEmit: true, types: ["node"], noUnusedLocals: false, noUnusedParameters: false },
        include: names
      })
    )
    const output = await typeCheck(scratch)
    // Each error names the doc and the line of the block's fence instead of the scratch file.
    const errors = output
      .split("\n")
      .filter((line) => line.includes("error TS"))
      .map((line) =>
        line.replace(/^block(\d+)\.ts\((\d+),\d+\)/, (_, i: string, row: string) => {
          const block = blocks[Number(i)]
          return `${block?.doc}:${(block?.line ?? 0) + Number(row)}`
        })
      )
    expect(errors).toEqual([])
  })
})
