import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import type { Principal } from "@svc/core/auth"
import { type ToolAnswer, ToolServer } from "@svc/core/tools"
import { Effect } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

type Answer = ToolAnswer & Record<string, unknown>
type Link = { id: string; title: string; url: string; preview: string; reused: boolean; captureId: string | null }
type Post = {
  id: string
  type: string
  title: string
  platform: string
  externalId: string | null
  author: string | null
  text: string | null
  url: string | null
  reused: boolean
  captureId: string | null
}

const call = (principal: Principal, name: string, args: unknown) =>
  Effect.flatMap(ToolServer, (server) => server.call(principal, name, args)) as Effect.Effect<
    Answer,
    unknown,
    ToolServer
  >

const createBoard = (principal: Principal, title: string) =>
  Effect.map(call(principal, "svc_create_board", { title }), (answer) => (answer.board as { id: string }).id)

const eventsOf = (workspaceId: string, type: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{
      readonly data: unknown
    }>`SELECT data FROM events WHERE workspace_id = ${workspaceId} AND type = ${type}`.pipe(Effect.orDie)
  )

layer(testCoreLayer(), { timeout: "60 seconds" })(`saving links, posts, ads and media on ${engineName}`, (it) => {
  describe("svc_save_links_to_board", () => {
    it.effect("saves links with offline titles, reuses a URL saved before, and records events", () =>
      Effect.gen(function* () {
        const { principal, workspace } = yield* signUp()
        const saved = yield* call(principal, "svc_save_links_to_board", {
          urls: ["https://Blog.Example.com/posts/how-to-grow-a-newsletter#intro", "https://example.org/"]
        })
        expect(saved).toMatchObject({ ok: true, board: null })
        const [first, second] = saved.links as Array<Link>
        expect(first).toMatchObject({
          title: "How to grow a newsletter — blog.example.com",
          url: "https://blog.example.com/posts/how-to-grow-a-newsletter",
          preview: "offline",
          reused: false,
          captureId: null
        })
        expect(first?.id).toMatch(/^link_/)
        expect(second?.title).toBe("example.org")

        const again = yield* call(principal, "svc_save_links_to_board", {
          links: [{ url: "https://blog.example.com/posts/how-to-grow-a-newsletter", note: "read this" }]
        })
        const [reused] = again.links as Array<Link & { note: string }>
        expect(reused).toMatchObject({ id: first?.id, reused: true, note: "read this" })

        const listed = yield* call(principal, "svc_list_workspace_items", { type: "link" })
        expect((listed.items as Array<unknown>).length).toBe(2)
        expect((yield* eventsOf(workspace.id, "item.created")).length).toBe(2)
        expect((yield* eventsOf(workspace.id, "item.updated")).length).toBe(1)
      })
    )

    it.effect("places links on a board after the items already there, once each", () =>
      Effect.gen(function* () {
        const { principal, workspace } = yield* signUp()
        const boardId = yield* createBoard(principal, "Research")
        const saved = yield* call(principal, "svc_save_links_to_board", {
          boardId,
          urls: ["https://a.example.com/one", "https://a.example.com/two", "https://a.example.com/one"]
        })
        expect(saved.board).toEqual({ id: boardId, title: "Research", added: 2, itemCount: 2 })
        const links = saved.links as Array<Link>
        expect(links[2]?.id).toBe(links[0]?.id)
        const again = yield* call(principal, "svc_save_links_to_board", {
          boardId,
          urls: ["https://a.example.com/two"]
        })
        expect(again.board).toEqual({ id: boardId, title: "Research", added: 0, itemCount: 2 })
        const added = yield* eventsOf(workspace.id, "board.items_added")
        expect(added).toHaveLength(1)
        const read = yield* call(principal, "svc_read_board", { boardId })
        expect(read).toMatchObject({ ok: true })
        expect(JSON.stringify(read)).toContain(links[1]?.id)
      })
    )

    it.effect("keeps text as a capture and passages as highlights, without doubling them on a second save", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const link = {
          url: "https://example.com/essay",
          title: "The essay",
          text: "Compounding audiences grow slowly and then all at once.",
          highlights: ["grow slowly and then all at once", "  "]
        }
        const first = yield* call(principal, "svc_save_links_to_board", { links: [link] })
        const saved = (first.links as Array<Link & { highlights: Array<{ id: string; text: string }> }>)[0]
        expect(saved?.captureId).toMatch(/^cap_/)
        expect(saved?.highlights).toEqual([{ id: expect.stringMatching(/^hl_/), text: link.highlights[0], note: "" }])
        const second = yield* call(principal, "svc_save_links_to_board", { links: [link] })
        const again = (second.links as Array<Link & { highlights: Array<{ id: string }> }>)[0]
        expect(again?.captureId).toBe(saved?.captureId)
        expect(again?.highlights[0]?.id).toBe(saved?.highlights[0]?.id)
        const captures = yield* call(principal, "svc_search_captures", {})
        expect(captures.captures).toHaveLength(1)
      })
    )

    it.effect("refuses bad addresses, too many links and another workspace's board", () =>
      Effect.gen(function* () {
        const alice = yield* signUp()
        const bob = yield* signUp()
        const bad = yield* call(alice.principal, "svc_save_links_to_board", {
          urls: ["ftp://example.com/file", "not a url"]
        })
        expect(bad).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "urls.0" }, { path: "urls.1" }] })
        const none = yield* call(alice.principal, "svc_save_links_to_board", {})
        expect(none).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "urls" }] })
        const many = yield* call(alice.principal, "svc_save_links_to_board", {
          urls: Array.from({ length: 51 }, (_, i) => `https://example.com/${i}`)
        })
        expect(many).toMatchObject({ ok: false, status: "invalid" })
        expect(String(many.message)).toContain("at most 50")
        const boardId = yield* createBoard(alice.principal, "Mine")
        const foreign = yield* call(bob.principal, "svc_save_links_to_board", {
          boardId,
          urls: ["https://example.com/"]
        })
        expect(foreign).toMatchObject({ ok: false, status: "not-found" })
        // Nothing was saved for bob: the refusal rolled the whole call back.
        const listed = yield* call(bob.principal, "svc_list_workspace_items", {})
        expect(listed.items).toEqual([])
      })
    )

    it.effect("makes one item of one URL saved by many calls at once", () =>
      Effect.gen(function* () {
        const { principal, workspace } = yield* signUp()
        const boardId = yield* createBoard(principal, "Race")
        const answers = yield* Effect.forEach(
          Array.from({ length: 8 }, (_, i) => i),
          (i) =>
            call(principal, "svc_save_links_to_board", {
              boardId,
              links: [{ url: "https://example.com/race", text: `clip ${i % 2}` }]
            }),
          { concurrency: "unbounded" }
        )
        const ids = new Set(answers.map((a) => (a.links as Array<Link>)[0]?.id))
        expect(ids.size).toBe(1)
        expect(answers.filter((a) => (a.links as Array<Link>)[0]?.reused === false)).toHaveLength(1)
        const created = yield* eventsOf(workspace.id, "item.created")
        expect(created.filter((e) => JSON.stringify(e.data).includes('"type":"link"'))).toHaveLength(1)
        const captures = yield* call(principal, "svc_search_captures", {})
        expect((captures.captures as Array<{ text: string }>).map((c) => c.text).sort()).toEqual(["clip 0", "clip 1"])
        const read = yield* call(principal, "svc_read_board", { boardId })
        expect(JSON.stringify(read).split("https://example.com/race").length - 1).toBeLessThanOrEqual(1)
        expect((yield* eventsOf(workspace.id, "board.items_added")).length).toBe(1)
      })
    )

    it.effect("refuses to fill a board past its item limit, and keeps nothing of the refused call", () =>
      Effect.gen(function* () {
        const { principal, workspace } = yield* signUp()
        const boardId = yield* createBoard(principal, "Full")
        const sql = yield* SqlClient.SqlClient
        // 1,999 items already on the board, written directly: the tools would take 40 calls.
        yield* sql`INSERT INTO items (id, workspace_id, type, title, created_at, updated_at)
                   SELECT 'note_fill' || n, ${workspace.id}, 'note', 'Filler ' || n, now(), now()
                   FROM generate_series(1, 1999) AS n`
        yield* sql`INSERT INTO board_items (board_id, item_id, added_at)
                   SELECT ${boardId}, 'note_fill' || n, now() FROM generate_series(1, 1999) AS n`
        const over = yield* call(principal, "svc_save_links_to_board", {
          boardId,
          urls: ["https://example.com/one", "https://example.com/two"]
        })
        expect(over).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "boardId" }] })
        expect(String(over.message)).toContain("can take 1 more (at most 2000)")
        const links = yield* call(principal, "svc_list_workspace_items", { type: "link" })
        expect(links.items).toEqual([])
        const fits = yield* call(principal, "svc_save_links_to_board", { boardId, urls: ["https://example.com/one"] })
        expect(fits).toMatchObject({ ok: true, board: { added: 1, itemCount: 2000 } })
      }).pipe(Effect.orDie)
    )

    it.effect("brings a trashed link back when the same URL is saved again", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const saved = yield* call(principal, "svc_save_links_to_board", { urls: ["https://example.com/back"] })
        const id = (saved.links as Array<Link>)[0]?.id
        expect(yield* call(principal, "svc_trash_item", { itemId: id })).toMatchObject({ ok: true })
        const again = yield* call(principal, "svc_save_links_to_board", { urls: ["https://example.com/back"] })
        expect((again.links as Array<Link>)[0]).toMatchObject({ id, reused: true })
        const listed = yield* call(principal, "svc_list_workspace_items", { type: "link" })
        expect((listed.items as Array<{ id: string }>).map((item) => item.id)).toEqual([id])
      })
    )
  })

  describe("posts and ads", () => {
    it.effect("saves posts by URL or by platform id, keeps what was given, and captures the text", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const saved = yield* call(principal, "svc_save_posts_to_library", {
          posts: [
            { url: "https://twitter.com/ada/status/1790000000000000001" },
            {
              platform: "linkedin",
              postId: "7100000000000000000",
              author: "Grace Hopper",
              text: "Ship small.\nOften."
            },
            { url: "https://www.tiktok.com/@chef/video/7300000000000000000", text: "Knife skills in 60s" }
          ]
        })
        expect(saved.ok).toBe(true)
        const [x, linkedin, tiktok] = saved.posts as Array<Post>
        expect(x).toMatchObject({
          type: "post",
          platform: "x",
          externalId: "1790000000000000001",
          author: "@ada",
          text: null,
          url: "https://twitter.com/ada/status/1790000000000000001",
          captureId: null,
          reused: false
        })
        expect(x?.id).toMatch(/^post_/)
        expect(linkedin).toMatchObject({
          platform: "linkedin",
          author: "Grace Hopper",
          text: "Ship small.\nOften.",
          url: null,
          title: "Grace Hopper on LinkedIn: Ship small."
        })
        expect(linkedin?.captureId).toMatch(/^cap_/)
        expect(tiktok).toMatchObject({ platform: "tiktok", author: "@chef", externalId: "7300000000000000000" })

        // The same X post by its id (as a research tool would give it) is the same item; its text fills the gap.
        const again = yield* call(principal, "svc_save_posts_to_library", {
          posts: [{ platform: "x", postId: "1790000000000000001", text: "Launching today" }]
        })
        expect((again.posts as Array<Post>)[0]).toMatchObject({
          id: x?.id,
          reused: true,
          text: "Launching today",
          author: "@ada"
        })
        expect((again.posts as Array<Post>)[0]?.captureId).toMatch(/^cap_/)
        const captures = yield* call(principal, "svc_search_captures", { query: "launching" })
        expect(captures.captures).toMatchObject([{ itemId: x?.id, platform: "x", text: "Launching today" }])
      })
    )

    it.effect("needs url, or platform and postId, for each post", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const answer = yield* call(principal, "svc_save_posts_to_library", {
          posts: [{ url: "https://x.com/a/status/1" }, { platform: "x" }]
        })
        expect(answer).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "posts.1" }] })
        expect(String(answer.message)).toContain("platform and postId")
      })
    )

    it.effect("saves posts to a board, which must be given", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const missing = yield* call(principal, "svc_save_posts_to_board", {
          posts: [{ url: "https://x.com/a/status/1" }]
        })
        expect(missing).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "boardId" }] })
        const boardId = yield* createBoard(principal, "Swipe file")
        const saved = yield* call(principal, "svc_save_posts_to_board", {
          boardId,
          posts: [{ url: "https://www.instagram.com/p/Cabc123/" }, { platform: "youtube", postId: "dQw4w9WgXcQ" }]
        })
        expect(saved).toMatchObject({ ok: true, board: { id: boardId, added: 2, itemCount: 2 } })
        expect((saved.posts as Array<Post>).map((p) => [p.platform, p.externalId])).toEqual([
          ["instagram", "Cabc123"],
          ["youtube", "dQw4w9WgXcQ"]
        ])
      })
    )

    it.effect("saves ads with their brand and text, on a board or not", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const boardId = yield* createBoard(principal, "Ads")
        const saved = yield* call(principal, "svc_save_ads_to_board", {
          boardId,
          ads: [
            { url: "https://www.facebook.com/ads/library/?id=123456789", brand: "Acme", text: "Summer sale: 30% off" },
            { platform: "tiktok", adId: "ad-42" }
          ]
        })
        expect(saved).toMatchObject({ ok: true, board: { id: boardId, added: 2 } })
        const [meta, tiktok] = saved.ads as Array<Post>
        expect(meta).toMatchObject({
          type: "ad",
          platform: "facebook",
          externalId: "123456789",
          author: "Acme",
          title: "Ad by Acme on Facebook: Summer sale: 30% off"
        })
        expect(meta?.id).toMatch(/^ad_/)
        expect(meta?.captureId).toMatch(/^cap_/)
        expect(tiktok).toMatchObject({ platform: "tiktok", externalId: "ad-42", author: null, captureId: null })
        const library = yield* call(principal, "svc_save_ads_to_board", {
          ads: [{ platform: "tiktok", adId: "ad-42" }]
        })
        expect(library).toMatchObject({ ok: true, board: null, ads: [{ id: tiktok?.id, reused: true }] })
      })
    )
  })

  describe("media cards", () => {
    it.effect("adds an image by URL, infers its kind, and reads the card back with its board", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const boardId = yield* createBoard(principal, "Moodboard")
        const added = yield* call(principal, "svc_add_media_to_board", {
          url: "https://cdn.example.com/shots/hero-image.PNG",
          note: "use on the landing page",
          boardId
        })
        expect(added).toMatchObject({
          ok: true,
          reused: false,
          media: {
            kind: "image",
            url: "https://cdn.example.com/shots/hero-image.PNG",
            title: "Hero image — cdn.example.com",
            note: "use on the landing page",
            boards: [{ id: boardId, title: "Moodboard" }]
          },
          board: { id: boardId, added: 1, itemCount: 1 }
        })
        const mediaId = (added.media as { id: string }).id
        const read = yield* call(principal, "svc_read_media_card", { mediaId })
        expect(read).toEqual({ ok: true, media: added.media })
        const gif = yield* call(principal, "svc_add_media_to_board", { url: "https://example.com/a.gif" })
        expect(gif).toMatchObject({ ok: true, media: { kind: "gif", boards: [] }, board: null })
        const video = yield* call(principal, "svc_add_media_to_board", {
          url: "https://example.com/clip",
          kind: "video"
        })
        expect(video).toMatchObject({ ok: true, media: { kind: "video" } })
      })
    )

    it.effect("asks for the kind when the address does not show it, and hides other workspaces' cards", () =>
      Effect.gen(function* () {
        const alice = yield* signUp()
        const bob = yield* signUp()
        const unknown = yield* call(alice.principal, "svc_add_media_to_board", { url: "https://example.com/watch" })
        expect(unknown).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "kind" }] })
        const added = yield* call(alice.principal, "svc_add_media_to_board", { url: "https://example.com/a.mp4" })
        const mediaId = (added.media as { id: string }).id
        expect(yield* call(bob.principal, "svc_read_media_card", { mediaId })).toMatchObject({
          ok: false,
          status: "not-found"
        })
      })
    )
  })
})
