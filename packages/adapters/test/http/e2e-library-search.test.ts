import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { connectMcpClient } from "../support/mcp-client.js"
import { engineName } from "../support/database.js"
import { jsonOf, restCall } from "./requests.js"

const connect = (url: string, token: string) => connectMcpClient(url, token, "svc-e2e-library")

type Hit = { id: string; type: string; title: string; snippet: string }

layer(TestApp.layer, { timeout: "90 seconds", excludeTestServices: true })((it) => {
  describe(`saving to the library and searching it, end to end on ${engineName}`, () => {
    it.scoped("through MCP with the official SDK client: save links and posts, find a phrase ranked first", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        const client = yield* connect(app.url, user.token)
        const tool = (name: string, args: Record<string, unknown>) =>
          Effect.promise(() => client.callTool({ name, arguments: args })).pipe(
            Effect.map((result) => {
              expect(result.isError, JSON.stringify(result.structuredContent)).toBeUndefined()
              return result.structuredContent as Record<string, unknown>
            })
          )

        const { tools } = yield* Effect.promise(() => client.listTools())
        const byName = new Map(tools.map((t) => [t.name, t]))
        for (const name of [
          "svc_save_links_to_board",
          "svc_save_posts_to_library",
          "svc_save_posts_to_board",
          "svc_save_ads_to_board",
          "svc_add_media_to_board",
          "svc_search_workspace_items",
          "svc_read_media_card",
          "svc_list_chats",
          "svc_search_highlights",
          "svc_search_captures"
        ]) {
          expect(byName.has(name), name).toBe(true)
        }
        // All four hints are spelled out; saving links reaches the page-preview service, so it is open-world.
        expect(byName.get("svc_save_links_to_board")?.annotations).toEqual({
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: true
        })
        expect(byName.get("svc_search_workspace_items")?.annotations).toMatchObject({ readOnlyHint: true })

        const board = yield* tool("svc_create_board", { title: "Growth research" })
        const boardId = (board.board as { id: string }).id
        const links = yield* tool("svc_save_links_to_board", {
          boardId,
          links: [
            {
              url: "https://example.com/flywheel",
              text: "A content flywheel turns every post into the seed of the next one.",
              highlights: ["every post into the seed of the next one"]
            },
            { url: "https://example.com/pricing-pages" }
          ]
        })
        expect(links).toMatchObject({ ok: true, board: { id: boardId, added: 2, itemCount: 2 } })
        const [flywheel] = links.links as Array<{ id: string; preview: string }>
        expect(flywheel?.preview).toBe("offline")

        const posts = yield* tool("svc_save_posts_to_library", {
          posts: [
            { url: "https://x.com/ada/status/1800000000000000000", text: "The content flywheel is real: 10x reach." },
            { platform: "linkedin", postId: "7200000000000000000", author: "Grace", text: "Pricing is a product." }
          ]
        })
        expect((posts.posts as Array<{ platform: string }>).map((p) => p.platform)).toEqual(["x", "linkedin"])
        const note = yield* tool("svc_create_note", {
          title: "Content flywheel",
          markdown: "# Content flywheel\n\nHow each post feeds the next."
        })
        const noteId = (note.note as { id: string }).id

        const found = yield* tool("svc_search_workspace_items", { query: "content flywheel" })
        const hits = found.items as Array<Hit>
        expect(hits[0]).toMatchObject({ id: noteId, type: "note", title: "Content flywheel" })
        expect(hits.map((h) => h.id)).toContain(flywheel?.id)
        expect(hits.every((h) => h.snippet.includes("**"))).toBe(true)

        const captures = yield* tool("svc_search_captures", { query: "flywheel" })
        expect((captures.captures as Array<unknown>).length).toBe(2)
        const highlights = yield* tool("svc_search_highlights", { query: "seed" })
        expect(highlights.highlights).toMatchObject([{ itemId: flywheel?.id }])

        const media = yield* tool("svc_add_media_to_board", { url: "https://cdn.example.com/chart.webp", boardId })
        const mediaId = (media.media as { id: string }).id
        const card = yield* tool("svc_read_media_card", { mediaId })
        expect(card).toMatchObject({ ok: true, media: { kind: "image", boards: [{ id: boardId }] } })
        expect(yield* tool("svc_list_chats", {})).toEqual({ ok: true, chats: [] })

        const refused = yield* Effect.promise(() =>
          client.callTool({ name: "svc_search_workspace_items", arguments: { query: "x", cursor: "bogus" } })
        )
        expect(refused).toMatchObject({ isError: true, structuredContent: { ok: false, status: "invalid" } })
      })
    )

    it.effect("the same through REST: save, then search and find it first", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const { token } = yield* app.signUp()
        const send = (name: string, body: unknown) =>
          Effect.promise(async () => {
            const response = await app.handler(restCall(app.url, name, body, token))
            return { status: response.status, body: await jsonOf(response) }
          })

        const saved = yield* send("svc_save_links_to_board", {
          urls: ["https://example.com/evergreen-content-strategy", "https://example.com/other"]
        })
        expect(saved.status).toBe(200)
        const [evergreen] = saved.body.links as Array<{ id: string; title: string }>
        expect(evergreen?.title).toBe("Evergreen content strategy — example.com")
        const posts = yield* send("svc_save_posts_to_library", {
          posts: [{ platform: "x", postId: "1", text: "Evergreen content keeps paying." }]
        })
        expect(posts.status).toBe(200)

        const found = yield* send("svc_search_workspace_items", { query: "evergreen content strategy" })
        expect(found.status).toBe(200)
        expect((found.body.items as Array<Hit>)[0]).toMatchObject({ id: evergreen?.id, type: "link" })

        expect(yield* send("svc_search_workspace_items", { query: "the" })).toMatchObject({
          status: 422,
          body: { ok: false, status: "invalid", errors: [{ path: "query" }] }
        })
        expect(yield* send("svc_read_media_card", { mediaId: "media_nope" })).toMatchObject({
          status: 404,
          body: { ok: false, status: "not-found" }
        })
        const captures = yield* send("svc_search_captures", {})
        expect(captures).toMatchObject({ status: 200, body: { ok: true, captures: [{ platform: "x" }] } })
      })
    )
  })
})
