/// <reference types="node" />
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { describeCycle, fileCycles, folderCycles, type ImportGraph } from "./support/import-cycles.js"
import { importGraphOf } from "./support/import-graph.js"

const src = fileURLToPath(new URL("../src", import.meta.url))
const tsConfig = fileURLToPath(new URL("../tsconfig.json", import.meta.url))

// Folders form layers (shared ← accounts ← auth, items ← boards/highlights ← library ← workspace, events ← store and
// events ← webhooks, both ← store-api, …): a folder may import the folders below it and never one that imports it back, so any area can be
// read, tested and moved with what lies below it alone.
describe("the import graph of packages/core/src", () => {
  const scanned = importGraphOf(src, tsConfig)

  it("covers every source file and resolves every import", async () => {
    const { graph, unresolved } = await scanned
    const sources = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"))
    expect(sources.length).toBeGreaterThan(100)
    expect(Object.keys(graph).length).toBe(sources.length)
    expect(Object.values(graph).flat().length).toBeGreaterThan(sources.length)
    expect(unresolved).toEqual([])
  })

  it("has no cycle between files", async () => {
    expect(fileCycles((await scanned).graph).map(describeCycle)).toEqual([])
  })

  it("has no cycle between top-level folders", async () => {
    expect(folderCycles((await scanned).graph).map(describeCycle)).toEqual([])
  })

  // Webhooks deliver the store's events without knowing the store: the events' payloads, samples and rows are the
  // store API's contract (store-api/), which builds on both.
  it("leads from webhooks/ to no file of store/ or store-api/, directly or through another folder", async () => {
    const { graph } = await scanned
    const reached = new Set<string>()
    const visit = (file: string) => {
      if (reached.has(file)) return
      reached.add(file)
      for (const next of graph[file] ?? []) visit(next)
    }
    for (const file of Object.keys(graph).filter((file) => file.startsWith("webhooks/"))) visit(file)
    expect([...reached].filter((file) => file.startsWith("store/") || file.startsWith("store-api/"))).toEqual([])
    expect(reached.size).toBeGreaterThan(20)
  })

  it("is read with type-only imports and `.js` specifiers of `.ts` files, as the sources write them", async () => {
    const folder = mkdtempSync(join(tmpdir(), "svc-import-graph-"))
    try {
      writeFileSync(join(folder, "a.ts"), 'import type { B } from "./b.js"\nexport interface A { readonly b: B }\n')
      writeFileSync(join(folder, "b.ts"), 'import { type A } from "./a.js"\nexport interface B { readonly a?: A }\n')
      const { graph, unresolved } = await importGraphOf(folder, tsConfig)
      expect(unresolved).toEqual([])
      expect(fileCycles(graph).map(describeCycle)).toEqual(["a.ts <-> b.ts: a.ts -> b.ts; b.ts -> a.ts"])
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

describe("the cycle finder", () => {
  const layered: ImportGraph = {
    "index.ts": ["auth/service.ts", "workspace/service.ts"],
    "shared/errors.ts": [],
    "shared/paging.ts": ["shared/errors.ts"],
    "auth/schema.ts": ["shared/errors.ts"],
    "auth/service.ts": ["auth/schema.ts", "shared/paging.ts"],
    "workspace/service.ts": ["auth/schema.ts", "shared/paging.ts"]
  }

  it("finds nothing in a layered graph", () => {
    expect(fileCycles(layered)).toEqual([])
    expect(folderCycles(layered)).toEqual([])
  })

  it("names two folders that import each other and the imports that do it", () => {
    const graph = { ...layered, "auth/schema.ts": ["shared/errors.ts", "workspace/service.ts"] }
    expect(folderCycles(graph).map(describeCycle)).toEqual([
      "auth <-> workspace: auth/schema.ts -> workspace/service.ts; workspace/service.ts -> auth/schema.ts"
    ])
    // The files close a cycle too: auth/schema.ts -> workspace/service.ts -> auth/schema.ts.
    expect(fileCycles(graph).map(describeCycle)).toEqual([
      "auth/schema.ts <-> workspace/service.ts: auth/schema.ts -> workspace/service.ts; workspace/service.ts -> auth/schema.ts"
    ])
  })

  it("finds a folder cycle that no file cycle shows, through another folder", () => {
    // auth/service.ts -> workspace/service.ts and workspace/service.ts -> shared/paging.ts -> auth/schema.ts: no file
    // comes back to itself, but the folders auth, workspace and shared all reach one another.
    const graph = {
      ...layered,
      "auth/service.ts": ["auth/schema.ts", "workspace/service.ts"],
      "shared/paging.ts": ["shared/errors.ts", "auth/schema.ts"]
    }
    expect(fileCycles(graph)).toEqual([])
    expect(folderCycles(graph)).toEqual([
      {
        members: ["auth", "shared", "workspace"],
        imports: [
          "auth/schema.ts -> shared/errors.ts",
          "auth/service.ts -> workspace/service.ts",
          "shared/paging.ts -> auth/schema.ts",
          "workspace/service.ts -> auth/schema.ts",
          "workspace/service.ts -> shared/paging.ts"
        ]
      }
    ])
  })

  it("leaves imports within one folder to the file check", () => {
    const graph = { ...layered, "shared/errors.ts": ["shared/paging.ts"] }
    expect(folderCycles(graph)).toEqual([])
    expect(fileCycles(graph).map(describeCycle)).toEqual([
      "shared/errors.ts <-> shared/paging.ts: shared/errors.ts -> shared/paging.ts; shared/paging.ts -> shared/errors.ts"
    ])
  })

  it("counts a file that imports itself", () => {
    const graph = { ...layered, "shared/errors.ts": ["shared/errors.ts"] }
    expect(fileCycles(graph).map(describeCycle)).toEqual(["shared/errors.ts: shared/errors.ts -> shared/errors.ts"])
  })

  it("reports separate tangles apart, each once", () => {
    const graph = {
      ...layered,
      "auth/schema.ts": ["workspace/service.ts"],
      "store/api.ts": ["webhooks/api.ts"],
      "store/rows.ts": [],
      "webhooks/api.ts": ["store/rows.ts"],
      "webhooks/service.ts": ["store/api.ts"]
    }
    expect(folderCycles(graph).map(describeCycle)).toEqual([
      "auth <-> workspace: auth/schema.ts -> workspace/service.ts; workspace/service.ts -> auth/schema.ts",
      "store <-> webhooks: store/api.ts -> webhooks/api.ts; webhooks/api.ts -> store/rows.ts; webhooks/service.ts -> store/api.ts"
    ])
  })
})
