/**
 * The knowledge tools through the tool server: managing sources, reading them paged, searching, and the store
 * group's organising, with their failures as tool answers.
 */
import { expect, layer } from "@effect/vitest"
import { toolServerLive } from "@svc/core"
import type { Principal } from "@svc/core/auth"
import { CustomAis, knowledgeTools } from "@svc/core/custom-ai"
import { ToolServer } from "@svc/core/tools"
import { Effect } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

// A tool server over the knowledge tools alone, built on the core of the test layer, so this runs whether or not
// they are composed into everyToolset.
const knowledgeToolServer = Effect.provide(ToolServer, toolServerLive([knowledgeTools]))

const call = (principal: Principal, name: string, args: Record<string, unknown>) =>
  Effect.flatMap(knowledgeToolServer, (server) => server.call(principal, name, args)).pipe(
    Effect.map((answer) => answer as Record<string, unknown>),
    Effect.orDie
  )

type Source = { id: string; title: string; status: string; folder?: string; position: number; failure?: string }

const seller = Effect.gen(function* () {
  const user = yield* signUp()
  const customAi = yield* (yield* CustomAis).create(user.workspace.id, { name: "Coach" })
  const tool = (name: string, args: Record<string, unknown>) =>
    call(user.principal, name, { customAIId: customAi.id, ...args })
  return { user, customAi, tool }
})

layer(testCoreLayer(), { timeout: "120 seconds" })(`knowledge tools (${engineName})`, (it) => {
  it.effect("adds, lists, updates, refreshes, reads, searches and removes sources", () =>
    Effect.gen(function* () {
      const { tool } = yield* seller
      const manage = (args: Record<string, unknown>) => tool("svc_manage_custom_ai_sources", args)

      const added = (yield* manage({
        action: "add",
        kind: "text",
        title: "Onboarding",
        text: "New clients get a welcome call within two days."
      })) as { ok: boolean; sources: Array<Source> }
      expect(added).toMatchObject({ ok: true, sources: [{ title: "Onboarding", status: "ready", kind: "text" }] })
      const id = added.sources[0]?.id ?? ""
      expect(id).toMatch(/^ks_/)
      yield* manage({ action: "add", kind: "url", url: "http://10.0.0.7/wiki" })

      const listed = (yield* manage({ action: "list", limit: 1 })) as { sources: Array<Source>; nextCursor?: string }
      expect(listed.sources.map((s) => s.title)).toEqual(["Onboarding"])
      const second = (yield* manage({ action: "list", limit: 1, cursor: listed.nextCursor })) as {
        sources: Array<Source>
        nextCursor?: string
      }
      expect(second.sources[0]).toMatchObject({ kind: "url", status: "failed", ref: "http://10.0.0.7/wiki" })
      expect(second.nextCursor).toBeUndefined()

      const updated = (yield* manage({
        action: "update",
        sourceId: id,
        text: "New clients get a welcome call within one day."
      })) as { sources: Array<Source> }
      expect(updated.sources).toEqual([expect.objectContaining({ id, title: "Onboarding", status: "ready" })])
      expect(yield* manage({ action: "refresh", sourceId: id })).toMatchObject({ ok: true, sources: [{ id }] })
      const refreshedAll = (yield* manage({ action: "refresh" })) as { sources: Array<Source> }
      expect(refreshedAll.sources.map((s) => s.status)).toEqual(["ready", "failed"])

      const search = (yield* tool("svc_search_custom_ai_knowledge", { query: "welcome call" })) as {
        passages: Array<{ sourceId: string; text: string; sourceKind: string }>
      }
      expect(search.passages).toEqual([
        expect.objectContaining({
          sourceId: id,
          sourceKind: "text",
          text: "New clients get a welcome call within one day."
        })
      ])

      const read = yield* tool("svc_read_custom_ai_knowledge", { sourceId: id, offset: 4, length: 7 })
      expect(read).toEqual({ ok: true, title: "Onboarding", text: "clients", characters: 46, nextOffset: 11 })
      const all = (yield* tool("svc_read_custom_ai_knowledge", {})) as { sources: Array<Source> }
      expect(all.sources.length).toBe(2)

      expect(yield* manage({ action: "remove", sourceId: id })).toEqual({ ok: true, removedSourceId: id })
      expect(yield* manage({ action: "remove", sourceId: id })).toMatchObject({ ok: false, status: "not-found" })
      expect((yield* tool("svc_search_custom_ai_knowledge", { query: "welcome" })) as object).toEqual({
        ok: true,
        passages: []
      })
    })
  )

  it.effect("refuses fields of another kind, missing fields and unknown Custom AIs with field errors", () =>
    Effect.gen(function* () {
      const { tool, user } = yield* seller
      const manage = (args: Record<string, unknown>) => tool("svc_manage_custom_ai_sources", args)
      expect(yield* manage({ action: "add", kind: "text", text: "x", url: "https://example.com" })).toMatchObject({
        ok: false,
        status: "invalid",
        errors: [{ path: "url" }]
      })
      expect(yield* manage({ action: "add", kind: "note" })).toMatchObject({
        status: "invalid",
        errors: [{ path: "noteId" }]
      })
      expect(yield* manage({ action: "update" })).toMatchObject({ status: "invalid", errors: [{ path: "sourceId" }] })
      const tooLong = (yield* manage({ action: "add", kind: "text", text: "x".repeat(200_001) })) as {
        status: string
        errors: Array<{ path: string }>
      }
      expect(tooLong.status).toBe("invalid")

      const stranger = yield* signUp()
      const other = yield* call(stranger.principal, "svc_search_custom_ai_knowledge", {
        customAIId: (yield* (yield* CustomAis).create(user.workspace.id, { name: "Mine" })).id,
        query: "anything"
      })
      expect(other).toMatchObject({ ok: false, status: "not-found" })
    })
  )

  it.effect("organizes sources into folders, a new order and new titles", () =>
    Effect.gen(function* () {
      const { tool } = yield* seller
      const add = (title: string) =>
        Effect.map(
          tool("svc_manage_custom_ai_sources", { action: "add", kind: "text", title, text: `${title} text.` }),
          (answer) => (answer as { sources: Array<Source> }).sources[0]?.id ?? ""
        )
      const a = yield* add("Alpha")
      const b = yield* add("Beta")
      const c = yield* add("Gamma")
      const organized = (yield* tool("svc_organize_custom_ai_knowledge", {
        changes: [
          { sourceId: c, position: 0, folder: "Basics" },
          { sourceId: a, position: 5, title: "Alpha (old)" },
          { sourceId: b, position: 2, folder: "Basics" }
        ]
      })) as { sources: Array<Source> }
      expect(organized.sources.map((s) => [s.id, s.title, s.folder, s.position])).toEqual([
        [c, "Gamma", "Basics", 0],
        [b, "Beta", "Basics", 2],
        [a, "Alpha (old)", undefined, 5]
      ])
      const cleared = (yield* tool("svc_organize_custom_ai_knowledge", {
        changes: [{ sourceId: c, folder: "" }]
      })) as { sources: Array<Source> }
      expect(cleared.sources[0]?.folder).toBeUndefined()
      expect(
        yield* tool("svc_organize_custom_ai_knowledge", { changes: [{ sourceId: "ks_nope", position: 1 }] })
      ).toMatchObject({ ok: false, status: "not-found" })
      expect(
        yield* tool("svc_organize_custom_ai_knowledge", { changes: [{ sourceId: a, folder: "f".repeat(101) }] })
      ).toMatchObject({ ok: false, status: "invalid" })
    })
  )
})
