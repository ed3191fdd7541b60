/**
 * Every TypeScript block of the README, the packages' READMEs and docs/ type-checks against the packages as a reader
 * installs them: packed with `npm pack` and installed from the tarballs, so a declaration that imports a package the
 * tarball does not depend on, or a file left out of it, fails here as it would for them. A block that only continues
 * another (a line of a larger program) says so on the line above its fence: `<!-- fragment: why -->`.
 */
import { execFile } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"

const root = resolve(import.meta.dirname, "..")
// A project of its own with the four tarballs installed, under the repository's node_modules: `@svc/*` and their
// dependencies resolve from its own node_modules, and what only the docs' examples use (express, hono, …) from ours.
const scratch = join(root, "node_modules/.cache/svc-doc-snippets")
const workspaces = ["core", "adapters", "client", "server"]

// npm as a reader runs it: without the npm_* variables of the `npm test` this runs under.
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)))

/** Runs npm in `cwd`, failing the test with its output unless it exits 0. */
const npm = (args: ReadonlyArray<string>, cwd: string) =>
  new Promise<void>((done, fail) =>
    execFile(
      "npm",
      [...args],
      { cwd, env: npmEnv, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error === null ? done() : fail(new Error(`npm ${args[0]} failed:\n${stdout}\n${stderr}`))
    )
  )

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

describe("the TypeScript blocks of the docs", { timeout: 600_000 }, () => {
  it("type-check strictly against the packages installed from their tarballs, each as a module of its own", async () => {
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
    const tarballs = join(scratch, "tarballs")
    mkdirSync(tarballs, { recursive: true })
    await npm(
      ["pack", "--pack-destination", tarballs, ...workspaces.flatMap((name) => ["--workspace", `packages/${name}`])],
      root
    )
    writeFileSync(
      join(scratch, "package.json"),
      JSON.stringify({ name: "doc-snippets", private: true, type: "module" })
    )
    await npm(
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--prefer-offline",
        ...readdirSync(tarballs).map((file) => join(tarballs, file))
      ],
      scratch
    )
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
