import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import type { Principal } from "@svc/core/auth"
import { Highlights } from "@svc/core/highlights"
import { type ToolAnswer, ToolServer } from "@svc/core/tools"
import { Effect, TestClock } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

type Answer = ToolAnswer & Record<string, unknown>
type Clip = { id: string; itemId: string; text: string; snippet: string | null; rank: number; createdAt: string }

const call = (principal: Principal, name: string, args: unknown) =>
  Effect.flatMap(ToolServer, (server) => server.call(principal, name, args)) as Effect.Effect<
    Answer,
    unknown,
    ToolServer
  >

const saveLink = (principal: Principal, link: Record<string, unknown>) =>
  Effect.map(
    call(principal, "svc_save_links_to_board", { links: [link] }),
    (answer) => (answer.links as Array<{ id: string }>)[0]?.id ?? ""
  )

layer(testCoreLayer(), { timeout: "60 seconds" })(`highlights and captures on ${engineName}`, (it) => {
  describe("svc_search_highlights", () => {
    it.effect("searches highlights best first with snippets, and lists them newest first without a query", () =>
      Effect.gen(function* () {
        const { principal, workspace } = yield* signUp()
        const essay = yield* saveLink(principal, {
          url: "https://example.com/essay",
          highlights: ["Distribution beats product when the product is good enough."]
        })
        yield* TestClock.adjust("1 minute")
        const notes = yield* call(principal, "svc_create_note", { title: "Reading notes", markdown: "…" })
        const noteId = (notes.note as { id: string }).id
        // The internal write path: a highlight on any item, with a note.
        const added = yield* (yield* Highlights).addHighlight(
          workspace.id,
          noteId,
          "Good enough products win with great distribution.",
          "the core argument"
        )
        expect(added).toMatchObject({ id: expect.stringMatching(/^hl_/), note: "the core argument" })

        const found = yield* call(principal, "svc_search_highlights", { query: "distribution product" })
        const hits = found.highlights as Array<Clip & { itemTitle: string; itemType: string; note: string }>
        expect(hits.map((h) => h.itemId).sort()).toEqual([essay, noteId].sort())
        expect(hits[0]?.snippet).toContain("**")
        expect(hits[0]?.rank).toBeGreaterThan(0)
        expect(hits.find((h) => h.itemId === noteId)).toMatchObject({
          itemType: "note",
          itemTitle: "Reading notes",
          note: "the core argument"
        })

        const listed = yield* call(principal, "svc_search_highlights", { query: "  " })
        const rows = listed.highlights as Array<Clip>
        expect(rows.map((h) => h.itemId)).toEqual([noteId, essay])
        expect(rows[0]).toMatchObject({ snippet: null, rank: 0 })

        const byItem = yield* call(principal, "svc_search_highlights", { itemId: essay })
        expect((byItem.highlights as Array<Clip>).map((h) => h.itemId)).toEqual([essay])
        const later = yield* call(principal, "svc_search_highlights", { createdAfter: rows[0]?.createdAt })
        expect((later.highlights as Array<Clip>).map((h) => h.itemId)).toEqual([noteId])
        const earlier = yield* call(principal, "svc_search_highlights", { createdBefore: rows[0]?.createdAt })
        expect((earlier.highlights as Array<Clip>).map((h) => h.itemId)).toEqual([essay])

        // A trashed item's highlights leave search and lists.
        yield* call(principal, "svc_trash_item", { itemId: essay })
        const afterTrash = yield* call(principal, "svc_search_highlights", { query: "distribution" })
        expect((afterTrash.highlights as Array<Clip>).map((h) => h.itemId)).toEqual([noteId])
      })
    )

    it.effect("pages both ways, and refuses another workspace's item and a bad window", () =>
      Effect.gen(function* () {
        const alice = yield* signUp()
        const bob = yield* signUp()
        const itemId = yield* saveLink(alice.principal, {
          url: "https://example.com/list",
          highlights: ["first idea about hooks", "second idea about hooks", "third idea about hooks"]
        })
        for (const query of [undefined, "hooks"]) {
          const seen: Array<string> = []
          let cursor: string | undefined
          do {
            const page = yield* call(alice.principal, "svc_search_highlights", {
              limit: 2,
              ...(query ? { query } : {}),
              ...(cursor ? { cursor } : {})
            })
            seen.push(...(page.highlights as Array<Clip>).map((h) => h.id))
            cursor = page.nextCursor as string | undefined
          } while (cursor !== undefined)
          expect(new Set(seen).size).toBe(3)
        }
        const listing = yield* call(alice.principal, "svc_search_highlights", { limit: 1 })
        const mixed = yield* call(alice.principal, "svc_search_highlights", {
          query: "hooks",
          cursor: listing.nextCursor
        })
        expect(mixed).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "cursor" }] })
        expect(yield* call(bob.principal, "svc_search_highlights", { itemId })).toMatchObject({
          ok: false,
          status: "not-found"
        })
        const window = yield* call(alice.principal, "svc_search_highlights", {
          createdAfter: "2026-11-02T00:00:00Z",
          createdBefore: "2026-11-01T00:00:00Z"
        })
        expect(window).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "createdBefore" }] })
        const badDate = yield* call(alice.principal, "svc_search_highlights", { createdAfter: "yesterday" })
        expect(badDate).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "createdAfter" }] })
        const noSuchDay = yield* call(alice.principal, "svc_search_highlights", { createdAfter: "2026-02-30" })
        expect(noSuchDay).toMatchObject({
          ok: false,
          status: "invalid",
          errors: [{ path: "createdAfter", message: 'must name a day the calendar has (got "2026-02-30")' }]
        })
      })
    )

    it.effect("needs read access to highlights", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp({ access: { kind: "custom", parts: { workspace: "read" } } })
        expect(yield* call(principal, "svc_search_highlights", {})).toMatchObject({ ok: false, status: "forbidden" })
        expect(yield* call(principal, "svc_search_captures", {})).toMatchObject({ ok: false, status: "forbidden" })
      })
    )
  })

  describe("svc_search_captures", () => {
    it.effect("searches the text saved with posts, ads and links, filtered by item and date", () =>
      Effect.gen(function* () {
        const { principal, workspace } = yield* signUp()
        const posts = yield* call(principal, "svc_save_posts_to_library", {
          posts: [
            { platform: "x", postId: "10", author: "@ada", text: "Our churn fell by half after the onboarding call." },
            { platform: "threads", postId: "11", text: "Morning routine: write first, email later." }
          ]
        })
        const [churn] = posts.posts as Array<{ id: string }>
        yield* TestClock.adjust("1 hour")
        yield* call(principal, "svc_save_ads_to_board", {
          ads: [{ platform: "facebook", adId: "99", brand: "Acme", text: "Cut churn with Acme onboarding." }]
        })
        yield* saveLink(principal, { url: "https://example.com/churn", text: "A study of churn in SaaS." })

        const found = yield* call(principal, "svc_search_captures", { query: "churn onboarding" })
        const hits = found.captures as Array<Clip & { platform: string | null; sourceUrl: string | null }>
        expect(hits).toHaveLength(2)
        expect(hits.map((h) => h.platform).sort()).toEqual(["facebook", "x"])
        expect(hits[0]?.snippet).toMatch(/\*\*churn\*\*/i)

        const listed = yield* call(principal, "svc_search_captures", {})
        expect(listed.captures).toHaveLength(4)
        const byItem = yield* call(principal, "svc_search_captures", { query: "churn", itemId: churn?.id })
        expect((byItem.captures as Array<Clip>).map((c) => c.itemId)).toEqual([churn?.id])
        const firstHour = yield* call(principal, "svc_search_captures", {
          createdBefore: new Date(Date.UTC(1970, 0, 1, 0, 30)).toISOString()
        })
        expect((firstHour.captures as Array<Clip>).map((c) => c.text).sort()).toEqual([
          "Morning routine: write first, email later.",
          "Our churn fell by half after the onboarding call."
        ])

        // Each capture was recorded in the event log with its change.
        const sql = yield* SqlClient.SqlClient
        const events = yield* sql<{ readonly n: number }>`
          SELECT count(*)::int AS n FROM events WHERE workspace_id = ${workspace.id} AND type = 'capture.created'`
        expect(Number(events[0]?.n)).toBe(4)
      }).pipe(Effect.orDie)
    )
  })
})
