import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import type { Principal } from "@svc/core/auth"
import { type ToolAnswer, ToolServer } from "@svc/core/tools"
import { CustomAis } from "@svc/core/custom-ai"
import { Effect, TestClock } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

type Answer = ToolAnswer & Record<string, unknown>
type Hit = { id: string; type: string; title: string; snippet: string; rank: number }

const call = (principal: Principal, name: string, args: unknown) =>
  Effect.flatMap(ToolServer, (server) => server.call(principal, name, args)) as Effect.Effect<
    Answer,
    unknown,
    ToolServer
  >

const noteId = (principal: Principal, title: string, markdown: string) =>
  Effect.map(call(principal, "svc_create_note", { title, markdown }), (a) => (a.note as { id: string }).id)

const search = (principal: Principal, args: Record<string, unknown>) =>
  Effect.map(call(principal, "svc_search_workspace_items", args), (answer) => ({
    answer,
    hits: (answer.items ?? []) as Array<Hit>
  }))

layer(testCoreLayer(), { timeout: "60 seconds" })(`searching the workspace on ${engineName}`, (it) => {
  describe("svc_search_workspace_items", () => {
    it.effect("finds a phrase in titles, notes, bodies and saved text, best first, with a snippet", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const inTitle = yield* noteId(principal, "Compounding audiences", "Notes for the talk.")
        const inBody = yield* noteId(
          principal,
          "Talk outline",
          "# Outline\n\nWhy compounding audiences beat viral spikes, with three examples from newsletters."
        )
        yield* noteId(principal, "Groceries", "eggs, milk, bread")
        const saved = yield* call(principal, "svc_save_posts_to_library", {
          posts: [
            {
              platform: "x",
              postId: "1",
              author: "@ada",
              text: "A thread on growth\nAudiences compound like interest."
            }
          ]
        })
        const postId = (saved.posts as Array<{ id: string }>)[0]?.id

        const { hits } = yield* search(principal, { query: "compounding audiences" })
        expect(hits.map((h) => h.id)).toEqual([inTitle, inBody, postId])
        expect(hits[0]?.rank).toBeGreaterThan(hits[1]?.rank ?? 1)
        expect(hits[1]?.snippet).toContain("**compounding** **audiences**")
        expect(hits[1]).toMatchObject({ type: "note", title: "Talk outline" })

        const phrase = yield* search(principal, { query: '"compounding audiences" -outline' })
        expect(phrase.hits.map((h) => h.id)).toEqual([inTitle])
        const posts = yield* search(principal, { query: "audiences", type: "post" })
        expect(posts.hits.map((h) => h.id)).toEqual([postId])
      })
    )

    it.effect("pages a ranked list with a cursor tied to its query, never repeating a row", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const ids: Array<string> = []
        for (let i = 0; i < 5; i++) {
          ids.push(yield* noteId(principal, `Pricing idea ${i}`, "pricing ".repeat(i + 1)))
          yield* TestClock.adjust("1 second")
        }
        const seen: Array<string> = []
        let cursor: string | undefined
        let pages = 0
        do {
          const { answer, hits } = yield* search(principal, {
            query: "pricing",
            limit: 2,
            ...(cursor ? { cursor } : {})
          })
          // A row added between pages does not shift the pages already read.
          if (pages === 0) yield* noteId(principal, "Unrelated pricing", "pricing")
          seen.push(...hits.map((h) => h.id))
          cursor = answer.nextCursor as string | undefined
          pages += 1
        } while (cursor !== undefined && pages < 10)
        expect(new Set(seen).size).toBe(seen.length)
        expect(seen).toEqual(expect.arrayContaining(ids))
        expect(pages).toBe(3)

        const first = yield* search(principal, { query: "pricing", limit: 2 })
        const other = yield* search(principal, { query: "idea", cursor: first.answer.nextCursor })
        expect(other.answer).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "cursor" }] })
        const forged = yield* search(principal, { query: "pricing", cursor: "bm9wZQ" })
        expect(forged.answer).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "cursor" }] })
      })
    )

    it.effect("leaves out trashed items and other workspaces, and refuses a query of only common words", () =>
      Effect.gen(function* () {
        const alice = yield* signUp()
        const bob = yield* signUp()
        const kept = yield* noteId(alice.principal, "Onboarding checklist", "welcome email")
        const trashed = yield* noteId(alice.principal, "Old onboarding", "welcome email v1")
        yield* noteId(bob.principal, "Bob's onboarding", "welcome")
        expect(yield* call(alice.principal, "svc_trash_item", { itemId: trashed })).toMatchObject({ ok: true })
        const { hits } = yield* search(alice.principal, { query: "onboarding" })
        expect(hits.map((h) => h.id)).toEqual([kept])
        const stop = yield* search(alice.principal, { query: "the and of" })
        expect(stop.answer).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "query" }] })
        const empty = yield* search(alice.principal, { query: "" })
        expect(empty.answer).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "query" }] })
        const none = yield* search(alice.principal, { query: "zebra" })
        expect(none.answer).toEqual({ ok: true, items: [] })
      })
    )
  })

  describe("svc_list_chats", () => {
    it.effect("lists the workspace's chats, most recently active first, paged and filtered by assistant", () =>
      Effect.gen(function* () {
        const alice = yield* signUp()
        const bob = yield* signUp()
        const sql = yield* SqlClient.SqlClient
        // Chats belong to a real Custom AI of the workspace (or to none).
        const ai = (yield* (yield* CustomAis).create(alice.workspace.id, { name: "Coach" })).id
        const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute))
        const chats = [
          { id: "chat_a1", ws: alice.workspace.id, title: "Pricing", ai: null, created: at(0), updated: at(50) },
          { id: "chat_a2", ws: alice.workspace.id, title: "Launch", ai, created: at(10), updated: at(20) },
          { id: "chat_a3", ws: alice.workspace.id, title: "Hooks", ai, created: at(30), updated: at(40) },
          { id: "chat_b1", ws: bob.workspace.id, title: "Bob's", ai: null, created: at(0), updated: at(59) }
        ]
        for (const c of chats) {
          yield* sql`INSERT INTO chats (id, workspace_id, title, custom_ai_id, created_at, updated_at)
                     VALUES (${c.id}, ${c.ws}, ${c.title}, ${c.ai}, ${c.created}, ${c.updated})`
        }
        const first = yield* call(alice.principal, "svc_list_chats", { limit: 2 })
        expect(first).toMatchObject({
          ok: true,
          chats: [
            { id: "chat_a1", title: "Pricing", customAIId: null, updatedAt: "2026-11-01T09:50:00.000Z" },
            { id: "chat_a3", customAIId: ai }
          ]
        })
        const second = yield* call(alice.principal, "svc_list_chats", { limit: 2, cursor: first.nextCursor })
        expect(second).toEqual({
          ok: true,
          chats: [
            {
              id: "chat_a2",
              title: "Launch",
              customAIId: ai,
              createdAt: "2026-11-01T09:10:00.000Z",
              updatedAt: "2026-11-01T09:20:00.000Z"
            }
          ]
        })
        const withAssistant = yield* call(alice.principal, "svc_list_chats", { customAIId: ai })
        expect((withAssistant.chats as Array<{ id: string }>).map((c) => c.id)).toEqual(["chat_a3", "chat_a2"])
        const foreign = yield* call(bob.principal, "svc_list_chats", { workspaceId: alice.workspace.id })
        expect(foreign).toMatchObject({ ok: false, status: "not-found" })
      }).pipe(Effect.orDie)
    )
  })
})
