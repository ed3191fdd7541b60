/**
 * `svc_search_instagram_music` through the tool server, as an agent calls it: the empty catalog's hint, tracks and
 * their pages, refusals, the plan of the Scheduling group, and the tool's pinned contract and list size.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import type { Principal } from "@svc/core/auth"
import { EMPTY_CATALOG_HINT, MusicCatalog, musicTools } from "@svc/core/music"
import { ToolRegistry, ToolServer } from "@svc/core/tools"
import { Effect, Layer } from "effect"
import { toMcpTool } from "../../src/http/mcp/tool-list.js"
import { MusicCatalogRepoSql } from "../../src/sql/repos/music-catalog.js"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

// A tool server of the music tool alone, over the whole test core (accounts, keys, plans, storage). Fresh: the test
// core builds `ToolServer.Default` over its own registry, and a layer is built once per value.
const testLayer = Layer.fresh(ToolServer.Default).pipe(
  Layer.provideMerge(ToolRegistry.layer([musicTools])),
  Layer.provideMerge(MusicCatalog.Default.pipe(Layer.provide(MusicCatalogRepoSql))),
  Layer.provideMerge(testCoreLayer())
)

const TOOL = "svc_search_instagram_music"

const call = (principal: Principal, args: Record<string, unknown>) =>
  Effect.flatMap(ToolServer, (server) => server.call(principal, TOOL, args)).pipe(
    Effect.map((answer) => answer as Record<string, unknown>),
    Effect.orDie
  )

type Track = { readonly id: string; readonly title: string; readonly match: string }
const tracksOf = (answer: Record<string, unknown>) => answer.tracks as ReadonlyArray<Track>

const emptyCatalog = Effect.flatMap(SqlClient, (sql) => sql`DELETE FROM music_tracks`).pipe(Effect.orDie)

layer(testLayer, { timeout: "60 seconds" })(`svc_search_instagram_music (${engineName})`, (it) => {
  it.effect("answers no tracks and a hint for the server's operator while the catalog is empty", () =>
    Effect.gen(function* () {
      yield* emptyCatalog
      const { principal } = yield* signUp()
      expect(yield* call(principal, { query: "love" })).toEqual({ ok: true, tracks: [], hint: EMPTY_CATALOG_HINT })
    })
  )

  it.effect("answers matching tracks best first, in pages, with no hint", () =>
    Effect.gen(function* () {
      yield* emptyCatalog
      const { principal, workspace } = yield* signUp()
      yield* (yield* MusicCatalog).importTracks([
        { row: 2, title: "Love Story", artist: "Taylor Swift", duration: "3:55", isrc: "USCJY0803275" },
        { row: 3, title: "Love", artist: "Lana Del Rey", duration: "4:32", usageNotes: "Reels and Stories; credit" },
        { row: 4, title: "Crazy in Love", artist: "Beyoncé", duration: "3:56" }
      ])
      const first = yield* call(principal, { query: "love", limit: 2, workspaceId: workspace.id })
      expect(first).toMatchObject({
        ok: true,
        tracks: [
          {
            title: "Love",
            artist: "Lana Del Rey",
            durationSeconds: 272,
            isrc: null,
            usageNotes: "Reels and Stories; credit",
            match: "exact"
          },
          { title: "Love Story", isrc: "USCJY0803275", match: "prefix" }
        ]
      })
      expect(first.hint).toBeUndefined()
      expect(tracksOf(first)[0]?.id).toMatch(/^trk_/)
      expect(typeof (tracksOf(first)[0] as unknown as { updatedAt: unknown }).updatedAt).toBe("string")
      const second = yield* call(principal, { query: "love", limit: 2, cursor: first.nextCursor })
      expect(tracksOf(second).map((t) => [t.title, t.match])).toEqual([["Crazy in Love", "contains"]])
      expect(second).not.toHaveProperty("nextCursor")

      const bounded = yield* call(principal, { query: "BEYONCE", maxDurationSeconds: 200 })
      expect(bounded.tracks).toEqual([])
      expect(bounded.hint).toContain("No licensed track matches")
    })
  )

  it.effect("refuses bad input with the field, and callers below the Scheduling group's plan", () =>
    Effect.gen(function* () {
      const { principal } = yield* signUp()
      const refusal = (answer: Record<string, unknown>) => {
        expect(answer.ok).toBe(false)
        return answer as { readonly status: string; readonly message: string; readonly errors?: unknown }
      }
      for (const args of [
        {},
        { query: "" },
        { query: "x".repeat(201) },
        { query: "love", limit: 0 },
        { query: "love", limit: 101 },
        { query: "love", minDurationSeconds: 0 },
        { query: "love", mood: "happy" },
        { query: "love", cursor: "not-a-cursor" },
        { query: "love", minDurationSeconds: 300, maxDurationSeconds: 200 }
      ]) {
        expect(refusal(yield* call(principal, args)).status, JSON.stringify(args)).toBe("invalid")
      }
      const bounds = refusal(
        yield* call(principal, { query: "love", minDurationSeconds: 300, maxDurationSeconds: 200 })
      )
      expect(bounds.errors).toEqual([
        { path: "minDurationSeconds", message: "minDurationSeconds must not be above maxDurationSeconds" }
      ])

      const free = yield* signUp({ plan: "free" })
      expect(refusal(yield* call(free.principal, { query: "love" })).status).toBe("forbidden")
    })
  )

  it.effect("keeps its contract (name, annotations, input schema) and a small tools/list entry", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry
      const listed = registry.tools.find((tool) => tool.descriptor.name === TOOL)
      expect(listed).toBeDefined()
      if (listed === undefined) return
      const { descriptor } = listed
      expect(descriptor).toMatchObject({ group: "Scheduling", write: false })
      expect(descriptor.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false })
      // The same snapshot, in the same form, as the contract test of every served tool (core/tool-contracts.test.ts).
      const contract = {
        name: descriptor.name,
        title: descriptor.title,
        group: descriptor.group,
        write: descriptor.write,
        deprecated: descriptor.deprecated ?? false,
        aliasOf: descriptor.aliasOf ?? null,
        annotations: descriptor.annotations,
        inputSchema: descriptor.inputSchema
      }
      yield* Effect.promise(() =>
        expect(`${JSON.stringify(contract, null, 2)}\n`).toMatchFileSnapshot(`../core/__contracts__/${TOOL}.json`)
      )
      expect(Buffer.byteLength(JSON.stringify(toMcpTool(descriptor)))).toBeLessThanOrEqual(1500)
    })
  )
})
