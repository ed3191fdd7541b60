/**
 * The workspace steps under `{api_url}` (`/api`) over the real HTTP faces and core: Workspaces (`GET /me`), Boards,
 * Custom AIs, Save link (and putting it on a board), Create note, New item saved and Post media upload. Each step's
 * answer, the tools' rules it follows (401 without a token, 403 for a read-only key on a write, 403 below the plan
 * for the scheduling upload), a bad field named in a 422, and another account's workspace refused with 404.
 */
import { expect, layer } from "@effect/vitest"
import { readOnlyAccess } from "@svc/core/auth"
import { CustomAis } from "@svc/core/custom-ai"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { ManualClock } from "../support/predictable.js"
import { png } from "../media/fixtures.js"
import { callStep, callTool, rowsOf } from "./support.js"

// The service's clock is the test's: lists read newest first, so items made in a row are a second apart (`tick`).
const clock = new ManualClock(Date.parse("2026-12-01T08:00:00Z"))
const tick = Effect.sync(() => clock.advance(1_000))

layer(TestApp.layerWith({}, { clock }), { timeout: "120 seconds", excludeTestServices: true })(
  `the automation tool's {api_url} steps (${engineName})`,
  (it) => {
    it.effect("GET /me answers the user and their workspaces for any account, plan and access", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const free = yield* app.signUp({ plan: "free" })
        const me = yield* callStep(app, "GET", "/api/me", { token: free.token })
        expect(me.status).toBe(200)
        expect(me.body).toEqual({
          ok: true,
          user: { id: free.account.id, email: free.account.email, name: free.account.name, plan: "free" },
          default_workspace_id: free.workspace.id,
          workspaces: [
            {
              id: free.workspace.id,
              name: free.workspace.name,
              is_default: true,
              store: { handle: free.store.handle, name: free.store.name },
              created_at: free.workspace.createdAt.toISOString()
            }
          ]
        })

        // A key that reaches only the store still identifies its user.
        const storeOnly = yield* app.signUp({ access: { kind: "custom", parts: { store: "read" } } })
        const narrow = yield* callStep(app, "GET", "/api/me", { token: storeOnly.token })
        expect(narrow.status).toBe(200)
        expect(narrow.body).toMatchObject({ ok: true, user: { id: storeOnly.account.id, plan: "starter" } })

        const anonymous = yield* callStep(app, "GET", "/api/me")
        expect(anonymous.status).toBe(401)
        expect(anonymous.body).toMatchObject({ ok: false, error: "unauthorized" })
        expect(anonymous.headers.get("www-authenticate")).toContain("Bearer")
        const unknown = yield* callStep(app, "GET", "/api/me", { token: "svc_pat_not-a-key" })
        expect(unknown.status).toBe(401)
        expect(unknown.headers.get("www-authenticate")).toContain('error="invalid_token"')
      })
    )

    it.effect("Boards lists a workspace's boards (type=canvas), newest first and paged", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp({ plan: "free" })
        const first = (yield* callTool(app, user.token, "svc_create_board", { title: "Ideas" })).board as {
          id: string
        }
        yield* tick
        yield* callTool(app, user.token, "svc_create_note", { markdown: "# Not a board" })
        yield* tick
        const second = (yield* callTool(app, user.token, "svc_create_board", { title: "Launch" })).board as {
          id: string
        }
        const path = `/api/workspaces/${user.workspace.id}/mobile/items`

        const boards = yield* callStep(app, "GET", `${path}?type=canvas`, { token: user.token })
        expect(boards.status).toBe(200)
        expect(rowsOf(boards).map((row) => [row.id, row.type, row.title])).toEqual([
          [second.id, "board", "Launch"],
          [first.id, "board", "Ideas"]
        ])
        expect(boards.body).toMatchObject({ ok: true, has_more: false })
        expect(rowsOf(boards)[0]?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)

        const page1 = yield* callStep(app, "GET", `${path}?type=canvas&limit=1`, { token: user.token })
        expect(rowsOf(page1).map((row) => row.id)).toEqual([second.id])
        expect(page1.body.has_more).toBe(true)
        const page2 = yield* callStep(
          app,
          "GET",
          `${path}?type=canvas&limit=1&starting_after=${String(page1.body.next_cursor)}`,
          { token: user.token }
        )
        expect(rowsOf(page2).map((row) => row.id)).toEqual([first.id])
        expect(page2.body.has_more).toBe(false)

        const every = yield* callStep(app, "GET", path, { token: user.token })
        expect(rowsOf(every)).toHaveLength(3)

        const badType = yield* callStep(app, "GET", `${path}?type=poster`, { token: user.token })
        expect(badType.status).toBe(422)
        expect(badType.body).toMatchObject({ ok: false, error: "invalid_field", errors: [{ path: "type" }] })
        const badLimit = yield* callStep(app, "GET", `${path}?limit=500`, { token: user.token })
        expect(badLimit.status).toBe(422)
        expect(badLimit.body).toMatchObject({ errors: [{ path: "limit" }] })
        const badCursor = yield* callStep(app, "GET", `${path}?starting_after=nope`, { token: user.token })
        expect(badCursor.status).toBe(422)
        expect(badCursor.body).toMatchObject({ errors: [{ path: "starting_after" }] })

        const other = yield* app.signUp({})
        const foreign = yield* callStep(app, "GET", `${path}?type=canvas`, { token: other.token })
        expect(foreign.status).toBe(404)
        expect(foreign.body).toMatchObject({ ok: false, error: "not_found" })
        const anonymous = yield* callStep(app, "GET", path)
        expect(anonymous.status).toBe(401)
      })
    )

    it.effect("Custom AIs lists the workspace's Custom AIs, by workspaceId or the default", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp({ plan: "free" })
        const helpdesk = yield* app.setUp(
          Effect.flatMap(CustomAis, (customAis) =>
            customAis.create(user.workspace.id, { name: "Helpdesk", description: "Answers customers." })
          )
        )
        const named = yield* callStep(app, "GET", `/api/custom-ai?workspaceId=${user.workspace.id}`, {
          token: user.token
        })
        expect(named.status).toBe(200)
        expect(rowsOf(named)).toEqual([
          {
            id: helpdesk.id,
            name: "Helpdesk",
            kind: helpdesk.kind,
            description: "Answers customers.",
            is_default: true,
            created_at: helpdesk.createdAt.toISOString(),
            updated_at: helpdesk.updatedAt.toISOString()
          }
        ])
        const byDefault = yield* callStep(app, "GET", "/api/custom-ai", { token: user.token })
        expect(byDefault.body).toEqual(named.body)

        const other = yield* app.signUp({})
        const foreign = yield* callStep(app, "GET", `/api/custom-ai?workspaceId=${user.workspace.id}`, {
          token: other.token
        })
        expect(foreign.status).toBe(404)
        const noAccess = yield* app.signUp({ access: { kind: "custom", parts: { boards: "edit" } } })
        const refused = yield* callStep(app, "GET", "/api/custom-ai", { token: noAccess.token })
        expect(refused.status).toBe(403)
        expect(refused.body).toMatchObject({ ok: false, error: "forbidden" })
        expect(yield* callStep(app, "GET", "/api/custom-ai")).toMatchObject({ status: 401 })
      })
    )

    it.effect("Save link saves to the library and onto a board; /items/<id>/reference places any item", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp({ plan: "free" })
        const board = (yield* callTool(app, user.token, "svc_create_board", { title: "Reading" })).board as {
          id: string
        }

        const saved = yield* callStep(app, "POST", "/api/workspace-items/link", {
          token: user.token,
          body: { url: "https://example.com/articles/sourdough", title: "Sourdough", note: "Try it", zap_meta: 1 }
        })
        expect(saved.status).toBe(200)
        expect(saved.body).toMatchObject({
          ok: true,
          type: "link",
          title: "Sourdough",
          url: "https://example.com/articles/sourdough",
          note: "Try it",
          reused: false,
          board: null,
          workspace_id: user.workspace.id
        })
        const linkId = String(saved.body.id)
        expect(linkId).toMatch(/^link_/)

        const again = yield* callStep(app, "POST", "/api/workspace-items/link", {
          token: user.token,
          body: { url: "https://example.com/articles/sourdough", board_id: board.id }
        })
        expect(again.body).toMatchObject({ ok: true, id: linkId, reused: true, board: { id: board.id, item_count: 1 } })

        const note = yield* callStep(app, "POST", "/api/workspace-items/markdown", {
          token: user.token,
          body: { markdown: "# Starter\n\nFeed it daily." }
        })
        const placed = yield* callStep(app, "POST", `/api/items/${String(note.body.id)}/reference`, {
          token: user.token,
          body: { board_id: board.id }
        })
        expect(placed.status).toBe(200)
        expect(placed.body).toMatchObject({
          ok: true,
          item_id: note.body.id,
          board: { id: board.id, title: "Reading", item_count: 2 },
          workspace_id: user.workspace.id
        })
        expect(typeof placed.body.x).toBe("number")
        const onBoard = (yield* callTool(app, user.token, "svc_read_board", { boardId: board.id })).items as Array<{
          id: string
        }>
        expect(onBoard.map((item) => item.id).sort()).toEqual([linkId, String(note.body.id)].sort())

        const badUrl = yield* callStep(app, "POST", "/api/workspace-items/link", {
          token: user.token,
          body: { url: "mailto:someone@example.com" }
        })
        expect(badUrl.status).toBe(422)
        expect(badUrl.body).toMatchObject({ ok: false, error: "invalid_field", errors: [{ path: "url" }] })
        const noUrl = yield* callStep(app, "POST", "/api/workspace-items/link", { token: user.token, body: {} })
        expect(noUrl.status).toBe(422)
        expect(noUrl.body).toMatchObject({ errors: [{ path: "url", message: "is required" }] })
        const notJson = yield* callStep(app, "POST", "/api/workspace-items/link", { token: user.token, rawBody: "[1]" })
        expect(notJson.status).toBe(400)

        const noBoard = yield* callStep(app, "POST", "/api/workspace-items/link", {
          token: user.token,
          body: { url: "https://example.com/b", board_id: "board_missing" }
        })
        expect(noBoard.status).toBe(404)
        const noItem = yield* callStep(app, "POST", "/api/items/link_missing/reference", {
          token: user.token,
          body: { board_id: board.id }
        })
        expect(noItem.status).toBe(404)
        const noBoardId = yield* callStep(app, "POST", `/api/items/${linkId}/reference`, {
          token: user.token,
          body: {}
        })
        expect(noBoardId.status).toBe(422)
        expect(noBoardId.body).toMatchObject({ errors: [{ path: "board_id" }] })

        const reader = yield* app.signUp({ access: readOnlyAccess })
        const readOnly = yield* callStep(app, "POST", "/api/workspace-items/link", {
          token: reader.token,
          body: { url: "https://example.com/c" }
        })
        expect(readOnly.status).toBe(403)
        expect(readOnly.body).toMatchObject({ ok: false, error: "forbidden" })
        expect(String(readOnly.body.message)).toContain("edit access")
        const readOnlyPlace = yield* callStep(app, "POST", `/api/items/${linkId}/reference`, {
          token: reader.token,
          body: { board_id: board.id }
        })
        expect(readOnlyPlace.status).toBe(403)

        const other = yield* app.signUp({})
        const foreign = yield* callStep(app, "POST", "/api/workspace-items/link", {
          token: other.token,
          body: { url: "https://example.com/d", workspace_id: user.workspace.id }
        })
        expect(foreign.status).toBe(404)
        const foreignBoard = yield* callStep(app, "POST", "/api/workspace-items/link", {
          token: other.token,
          body: { url: "https://example.com/d", board_id: board.id }
        })
        expect(foreignBoard.status).toBe(404)
        expect(
          yield* callStep(app, "POST", "/api/workspace-items/link", { body: { url: "https://example.com/e" } })
        ).toMatchObject({ status: 401 })
      })
    )

    it.effect("Create note makes a Markdown note; New item saved lists what was saved, newest first", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp({ plan: "free" })
        const note = yield* callStep(app, "POST", "/api/workspace-items/markdown", {
          token: user.token,
          body: { markdown: "Feed the starter at 9.", title: "Starter", workspace_id: user.workspace.id }
        })
        expect(note.status).toBe(200)
        expect(note.body).toMatchObject({
          ok: true,
          type: "note",
          title: "Starter",
          markdown: "Feed the starter at 9.",
          characters: 22,
          workspace_id: user.workspace.id
        })
        const read = (yield* callTool(app, user.token, "svc_get_note_markdown", { noteId: note.body.id })).note
        expect(read).toMatchObject({ id: note.body.id, markdown: "Feed the starter at 9." })

        yield* tick
        const link = yield* callStep(app, "POST", "/api/workspace-items/link", {
          token: user.token,
          body: { url: "https://example.com/flour" }
        })
        const library = yield* callStep(app, "GET", `/api/workspaces/${user.workspace.id}/mobile/library`, {
          token: user.token
        })
        expect(library.status).toBe(200)
        expect(rowsOf(library).map((row) => [row.id, row.type])).toEqual([
          [link.body.id, "link"],
          [note.body.id, "note"]
        ])
        expect(rowsOf(library)[1]).toEqual({
          id: note.body.id,
          type: "note",
          title: "Starter",
          url: null,
          created_at: note.body.created_at,
          updated_at: note.body.updated_at
        })
        const links = yield* callStep(app, "GET", `/api/workspaces/${user.workspace.id}/mobile/library?type=link`, {
          token: user.token
        })
        expect(rowsOf(links).map((row) => row.id)).toEqual([link.body.id])

        const noMarkdown = yield* callStep(app, "POST", "/api/workspace-items/markdown", {
          token: user.token,
          body: { title: "Empty" }
        })
        expect(noMarkdown.status).toBe(422)
        expect(noMarkdown.body).toMatchObject({ errors: [{ path: "markdown" }] })
        const longTitle = yield* callStep(app, "POST", "/api/workspace-items/markdown", {
          token: user.token,
          body: { markdown: "x", title: "t".repeat(301) }
        })
        expect(longTitle.body).toMatchObject({ errors: [{ path: "title" }] })

        const reader = yield* app.signUp({ access: readOnlyAccess })
        const readOnly = yield* callStep(app, "POST", "/api/workspace-items/markdown", {
          token: reader.token,
          body: { markdown: "no" }
        })
        expect(readOnly.status).toBe(403)
        const readerLibrary = yield* callStep(app, "GET", `/api/workspaces/${reader.workspace.id}/mobile/library`, {
          token: reader.token
        })
        expect(readerLibrary.status).toBe(200)

        const other = yield* app.signUp({})
        const foreign = yield* callStep(app, "GET", `/api/workspaces/${user.workspace.id}/mobile/library`, {
          token: other.token
        })
        expect(foreign.status).toBe(404)
        const foreignNote = yield* callStep(app, "POST", "/api/workspace-items/markdown", {
          token: other.token,
          body: { markdown: "x", workspace_id: user.workspace.id }
        })
        expect(foreignNote.status).toBe(404)
        expect(
          yield* callStep(app, "POST", "/api/workspace-items/markdown", { body: { markdown: "x" } })
        ).toMatchObject({ status: 401 })
      })
    )

    it.effect("Post media upload prepares a URL the file is PUT to, on Scheduling's plan and access", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp({ plan: "starter" })
        const prepared = yield* callStep(app, "POST", "/api/scheduling/media/prepare", {
          token: user.token,
          body: { file_name: "cover.png" }
        })
        expect(prepared.status).toBe(200)
        expect(prepared.body).toMatchObject({ ok: true, method: "PUT", workspace_id: user.workspace.id })
        expect(prepared.body.upload_id).toMatch(/^mup_/)
        expect(prepared.body.media_id).toMatch(/^med_/)
        expect(Date.parse(String(prepared.body.expires_at))).toBe(clock.unsafeCurrentTimeMillis() + 15 * 60_000)

        // The test core's public address is not this server's: the same path and signature, sent here.
        const target = new URL(String(prepared.body.upload_url))
        const bytes = yield* Effect.promise(() => png(8, 8))
        const put = yield* Effect.promise(() =>
          fetch(`${app.url}${target.pathname}${target.search}`, { method: "PUT", body: bytes })
        )
        expect(put.status).toBe(200)
        const post = yield* callTool(app, user.token, "svc_schedule_post", {
          text: "With a picture",
          platforms: ["feed"],
          draft: true,
          media: [{ id: prepared.body.media_id }]
        })
        expect(post.post).toMatchObject({ media: [{ id: prepared.body.media_id }] })

        const tooLong = yield* callStep(app, "POST", "/api/scheduling/media/prepare", {
          token: user.token,
          body: { file_name: "x".repeat(300) }
        })
        expect(tooLong.status).toBe(422)
        expect(tooLong.body).toMatchObject({ errors: [{ path: "file_name" }] })

        const free = yield* app.signUp({ plan: "free" })
        const belowPlan = yield* callStep(app, "POST", "/api/scheduling/media/prepare", { token: free.token, body: {} })
        expect(belowPlan.status).toBe(403)
        expect(belowPlan.body).toMatchObject({ ok: false, error: "forbidden" })
        expect(String(belowPlan.body.message)).toContain("Starter")
        const reader = yield* app.signUp({ access: readOnlyAccess })
        const readOnly = yield* callStep(app, "POST", "/api/scheduling/media/prepare", {
          token: reader.token,
          body: {}
        })
        expect(readOnly.status).toBe(403)
        const other = yield* app.signUp({})
        const foreign = yield* callStep(app, "POST", "/api/scheduling/media/prepare", {
          token: other.token,
          body: { workspace_id: user.workspace.id }
        })
        expect(foreign.status).toBe(404)
        expect(yield* callStep(app, "POST", "/api/scheduling/media/prepare", { body: {} })).toMatchObject({
          status: 401
        })
      })
    )

    it.effect("the steps' OpenAPI document lists every step with its request and answer", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const response = yield* Effect.promise(() => fetch(`${app.url}/api/openapi.json`))
        expect(response.status).toBe(200)
        const document = (yield* Effect.promise(() => response.json())) as {
          openapi: string
          paths: Record<string, Record<string, { requestBody?: unknown; parameters: Array<{ name: string }> }>>
        }
        expect(document.openapi).toBe("3.1.0")
        expect(Object.keys(document.paths).sort()).toEqual(
          [
            "/api/me",
            "/api/workspaces/{workspace_id}/mobile/items",
            "/api/workspaces/{workspace_id}/mobile/library",
            "/api/custom-ai",
            "/api/workspace-items/link",
            "/api/items/{item_id}/reference",
            "/api/workspace-items/markdown",
            "/api/scheduling/media/prepare",
            "/scheduling/mcp/schedules",
            "/scheduling/mcp/schedule-post",
            "/scheduling/mcp/drafts",
            "/scheduling/mcp/posts",
            "/ai/zapier/ask",
            "/ai/chats/{chat_id}",
            "/ai/zapier/routine-runs"
          ].sort()
        )
        expect(document.paths["/scheduling/mcp/posts"]?.get?.parameters.map((p) => p.name)).toEqual(
          expect.arrayContaining(["status", "workspaceId", "limit", "starting_after"])
        )
        expect(document.paths["/api/workspace-items/link"]?.post?.requestBody).toMatchObject({
          content: { "application/json": { schema: { required: ["url"] } } }
        })
      })
    )
  }
)
