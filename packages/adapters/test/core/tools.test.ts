import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Accounts } from "@svc/core/accounts"
import { readOnlyAccess } from "@svc/core/auth"
import { type ToolAnswer, ToolServer } from "@svc/core/tools"
import { Effect, TestClock } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

type Answer = ToolAnswer & Record<string, unknown>

const call = (principal: Parameters<ToolServer["call"]>[0], name: string, args: unknown) =>
  Effect.flatMap(ToolServer, (server) => server.call(principal, name, args)) as Effect.Effect<
    Answer,
    unknown,
    ToolServer
  >

layer(testCoreLayer(), { timeout: "60 seconds" })(`the tool server on ${engineName}`, (it) => {
  describe("notes", () => {
    it.effect("creates a note, reads it back and appends to it", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const created = yield* call(principal, "svc_create_note", { markdown: "# Launch plan\n\nShip it." })
        expect(created.ok).toBe(true)
        const note = created.note as { id: string; title: string; markdown: string; createdAt: string }
        expect(note.id).toMatch(/^note_[0-9a-z]{20}$/)
        expect(note.title).toBe("Launch plan")
        expect(note.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/)
        const read = yield* call(principal, "svc_get_note_markdown", { noteId: note.id })
        expect(read).toEqual({ ok: true, note })
        yield* TestClock.adjust("1 second")
        const appended = yield* call(principal, "svc_append_to_note", { noteId: note.id, markdown: "- step one" })
        const after = appended.note as { markdown: string; characters: number; updatedAt: string }
        expect(after.markdown).toBe("# Launch plan\n\nShip it.\n\n- step one")
        expect(after.characters).toBe(after.markdown.length)
        expect(after.updatedAt).not.toBe(note.createdAt)
      })
    )

    it.effect("keeps every append when many arrive at once", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const created = yield* call(principal, "svc_create_note", { title: "Log", markdown: "" })
        const noteId = (created.note as { id: string }).id
        yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => i),
          (i) => call(principal, "svc_append_to_note", { noteId, markdown: `line ${i}`, separator: "\n" }),
          { concurrency: "unbounded" }
        )
        const read = yield* call(principal, "svc_get_note_markdown", { noteId })
        const lines = (read.note as { markdown: string }).markdown.split("\n")
        expect(lines.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i}`).sort())
      })
    )

    it.effect("refuses notes past the size limit, and appends that would pass it", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const tooBig = yield* call(principal, "svc_create_note", { markdown: "x".repeat(200_001) })
        expect(tooBig).toMatchObject({ ok: false, status: "invalid" })
        const created = yield* call(principal, "svc_create_note", { markdown: "x".repeat(199_990) })
        const noteId = (created.note as { id: string }).id
        const over = yield* call(principal, "svc_append_to_note", { noteId, markdown: "y".repeat(20) })
        expect(over).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "markdown" }] })
      })
    )

    it.effect("answers not-found for a note of another workspace", () =>
      Effect.gen(function* () {
        const alice = yield* signUp()
        const bob = yield* signUp()
        const created = yield* call(alice.principal, "svc_create_note", { markdown: "secret" })
        const noteId = (created.note as { id: string }).id
        const peek = yield* call(bob.principal, "svc_get_note_markdown", { noteId })
        expect(peek).toMatchObject({ ok: false, status: "not-found" })
        const append = yield* call(bob.principal, "svc_append_to_note", { noteId, markdown: "mine now" })
        expect(append).toMatchObject({ ok: false, status: "not-found" })
      })
    )
  })

  describe("input validation", () => {
    it.effect("lists every bad field, and unknown fields too", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const answer = yield* call(principal, "svc_create_note", { title: 42, colour: "red" })
        expect(answer).toMatchObject({ ok: false, status: "invalid" })
        const paths = (answer.errors as ReadonlyArray<{ path: string }>).map((e) => e.path).sort()
        expect(paths).toEqual(["colour", "markdown", "title"])
        expect(JSON.stringify(answer)).not.toContain("ParseError")
      })
    )

    it.effect("refuses the NUL character in any text, naming each place, before it reaches the database", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const created = yield* call(principal, "svc_create_note", { title: "a\u0000b", markdown: "# ok\u0000" })
        expect(created).toMatchObject({
          ok: false,
          status: "invalid",
          message: "title must not contain the NUL character (\\u0000) (and 1 more)"
        })
        expect((created.errors as ReadonlyArray<{ path: string }>).map((e) => e.path)).toEqual(["title", "markdown"])
        const read = yield* call(principal, "svc_get_note_markdown", { noteId: "note_\u0000" })
        expect(read).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "noteId" }] })
        const rows = yield* call(principal, "svc_add_table_rows", { tableId: "t", rows: [{ ok: "x", "b\u0000": 1 }] })
        expect(rows).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "rows.0.b\u0000" }] })
      })
    )

    it.effect("refuses input nested past 64 levels without overflowing the stack (it answered 500)", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const deep = JSON.parse(`${"[".repeat(200_000)}${"]".repeat(200_000)}`) as unknown
        const refused = yield* call(principal, "svc_create_note", { title: "x", markdown: "y", extra: deep })
        expect(refused).toMatchObject({ ok: false, status: "invalid" })
        expect(String(refused.message)).toMatch(/^extra(\.0){63} nests deeper than 64 levels of objects and arrays$/)
        const nested = (levels: number): unknown => (levels === 0 ? "x" : [nested(levels - 1)])
        // 64 levels is still input like any: the tool's own schema answers it (an unknown field here).
        const fine = yield* call(principal, "svc_create_note", { title: "x", markdown: "y", extra: nested(63) })
        expect(fine).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "extra" }] })
        expect(String(fine.message)).not.toContain("nests deeper")
      })
    )

    it.effect("refuses half a surrogate pair alone in any text, and keeps a whole pair (an emoji)", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        // A JSON column refuses it (a 500 before), a text column would store U+FFFD in its place.
        const created = yield* call(principal, "svc_create_note", { title: "a\ud800b", markdown: "x\udfff" })
        expect(created).toMatchObject({
          ok: false,
          status: "invalid",
          message:
            "title must be well-formed Unicode: it holds half of a UTF-16 surrogate pair (\\ud800 to \\udfff) alone (and 1 more)"
        })
        expect((created.errors as ReadonlyArray<{ path: string }>).map((e) => e.path)).toEqual(["title", "markdown"])
        const emoji = yield* call(principal, "svc_create_note", { title: "Launch \ud83d\ude80", markdown: "# Go" })
        expect(emoji).toMatchObject({ ok: true, note: { title: "Launch 🚀" } })
        const read = yield* call(principal, "svc_get_note_markdown", {
          noteId: (emoji.note as { readonly id: string }).id
        })
        expect(read).toMatchObject({ ok: true, note: { title: "Launch 🚀" } })
      })
    )

    it.effect("refuses a non-object input", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        expect(yield* call(principal, "svc_list_workspaces", [1, 2])).toMatchObject({ ok: false, status: "invalid" })
        expect(yield* call(principal, "svc_list_workspaces", undefined)).toMatchObject({ ok: true })
      })
    )

    it.effect("fails with UnknownTool for a name that is not served", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const server = yield* ToolServer
        const error = yield* Effect.flip(server.call(principal, "svc_no_such_tool", {}))
        expect(error._tag).toBe("UnknownTool")
        // A catalog tool that is not implemented yet is not served either.
        const later = yield* Effect.flip(server.call(principal, "svc_manage_calendar", {}))
        expect(later._tag).toBe("UnknownTool")
      })
    )
  })

  describe("workspaces", () => {
    it.effect("uses the key's workspace by default and refuses others with not-found", () =>
      Effect.gen(function* () {
        const alice = yield* signUp()
        const bob = yield* signUp()
        const listed = yield* call(alice.principal, "svc_list_workspaces", {})
        expect(listed).toMatchObject({
          ok: true,
          workspaces: [{ id: alice.workspace.id, isDefault: true, store: { handle: alice.store.handle } }]
        })
        expect(listed.nextCursor).toBeUndefined()
        const own = yield* call(alice.principal, "svc_list_workspace_items", { workspaceId: alice.workspace.id })
        expect(own.ok).toBe(true)
        const foreign = yield* call(alice.principal, "svc_list_workspace_items", { workspaceId: bob.workspace.id })
        expect(foreign).toMatchObject({ ok: false, status: "not-found" })
      })
    )

    it.effect("answers missing-workspace when the caller has none to default to", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const orphan = { ...principal, workspaceId: null }
        expect(yield* call(orphan, "svc_list_workspace_items", {})).toMatchObject({
          ok: false,
          status: "missing-workspace"
        })
        expect(yield* call(orphan, "svc_list_workspaces", {})).toMatchObject({ ok: true, workspaces: [] })
      })
    )

    it.effect("remembers a workspace for 5 seconds: one deleted elsewhere is refused after that", () =>
      Effect.gen(function* () {
        const { principal, workspace } = yield* signUp()
        const sql = yield* SqlClient.SqlClient
        expect(yield* call(principal, "svc_list_workspace_items", {})).toEqual({ ok: true, items: [] })
        // Straight in storage, as another process would do it; the items go with the workspace.
        yield* sql`DELETE FROM workspaces WHERE id = ${workspace.id}`
        expect(yield* call(principal, "svc_list_workspace_items", {})).toEqual({ ok: true, items: [] })
        yield* TestClock.adjust("5 seconds")
        expect(yield* call(principal, "svc_list_workspace_items", {})).toMatchObject({
          ok: false,
          status: "missing-workspace"
        })
        const named = yield* call(principal, "svc_list_workspace_items", { workspaceId: workspace.id })
        expect(named).toMatchObject({ ok: false, status: "not-found" })
      })
    )

    it.effect("never lets a remembered workspace reach a credential of another workspace or account", () =>
      Effect.gen(function* () {
        const alice = yield* signUp()
        const bob = yield* signUp()
        // Bob's calls make his workspace a remembered one.
        expect(yield* call(bob.principal, "svc_list_workspace_items", {})).toMatchObject({ ok: true })
        const byId = { workspaceId: bob.workspace.id }
        expect(yield* call(alice.principal, "svc_list_workspace_items", byId)).toMatchObject({
          ok: false,
          status: "not-found"
        })
        const wide = { ...alice.principal, reach: "account" as const }
        expect(yield* call(wide, "svc_list_workspace_items", byId)).toMatchObject({ ok: false, status: "not-found" })
        // A key rebound to another workspace acts there at once (the binding is the principal's, not remembered).
        const rebound = { ...alice.principal, workspaceId: bob.workspace.id }
        expect(yield* call(rebound, "svc_list_workspace_items", byId)).toMatchObject({ ok: true })
      })
    )

    it.effect("lets an account-wide sign-in reach every workspace of the account, page by page", () =>
      Effect.gen(function* () {
        const { principal, account } = yield* signUp()
        const wide = { ...principal, reach: "account" as const }
        const accounts = yield* Accounts
        expect((yield* accounts.findByEmail(account.email)).id).toBe(account.id)
        const page = yield* call(wide, "svc_list_workspaces", { limit: 1 })
        expect((page.workspaces as ReadonlyArray<unknown>).length).toBe(1)
      })
    )
  })

  describe("listing items", () => {
    it.effect("pages newest first without gaps or repeats, and filters by type", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const ids: Array<string> = []
        for (let i = 0; i < 7; i++) {
          const created = yield* call(principal, "svc_create_note", { title: `n${i}`, markdown: `body ${i}` })
          ids.push((created.note as { id: string }).id)
          if (i % 2 === 0) yield* TestClock.adjust("1 second") // some notes share a timestamp: ids break the tie
        }
        const seen: Array<string> = []
        let cursor: string | undefined
        do {
          const page = yield* call(principal, "svc_list_workspace_items", { limit: 3, ...(cursor ? { cursor } : {}) })
          expect(page.ok).toBe(true)
          seen.push(...(page.items as ReadonlyArray<{ id: string }>).map((item) => item.id))
          cursor = page.nextCursor as string | undefined
        } while (cursor)
        expect(seen).toHaveLength(7)
        expect(new Set(seen)).toEqual(new Set(ids))
        const links = yield* call(principal, "svc_list_workspace_items", { type: "link" })
        expect(links).toEqual({ ok: true, items: [] })
        const bad = yield* call(principal, "svc_list_workspace_items", { cursor: "garbage" })
        expect(bad).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "cursor" }] })
        const badLimit = yield* call(principal, "svc_list_workspace_items", { limit: 101 })
        expect(badLimit).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "limit" }] })
      })
    )
  })

  describe("access and plans", () => {
    it.effect("hides and refuses tools a custom key has no access to", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp({
          access: { kind: "custom", parts: { workspace: "read", boards: "read" } }
        })
        const server = yield* ToolServer
        const names = server.list(principal).map((tool) => tool.entry.name)
        expect(names).toContain("svc_get_note_markdown")
        expect(names).not.toContain("svc_create_note")
        const refused = yield* call(principal, "svc_create_note", { markdown: "nope" })
        expect(refused).toMatchObject({ ok: false, status: "forbidden" })
        expect(refused.message).toContain("edit access")
        // A key that may only use social research is served its tools, and refused the rest.
        const social = yield* signUp({ access: { kind: "custom", parts: { social: "read" } } })
        const served = server.list(social.principal).map((tool) => tool.entry.name)
        expect(served).toContain("svc_resolve_creator")
        expect(served).not.toContain("svc_save_creators_to_list")
        expect(served).not.toContain("svc_list_workspaces")
        expect(yield* call(social.principal, "svc_list_workspaces", {})).toMatchObject({
          ok: false,
          status: "forbidden"
        })
      })
    )

    it.effect("lists and calls the deprecated alias svc_create_sticky_note", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const server = yield* ToolServer
        const alias = server.list(principal).find((tool) => tool.entry.name === "svc_create_sticky_note")
        expect(alias?.descriptor).toMatchObject({ deprecated: true, aliasOf: "svc_create_note" })
        const created = yield* call(principal, "svc_create_sticky_note", { markdown: "sticky" })
        expect(created).toMatchObject({ ok: true, note: { markdown: "sticky" } })
      })
    )

    it.effect("counts tool calls per credential: 120 a minute, then a wait", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const server = yield* ToolServer
        // Every admitted call counts, whatever its answer: a forbidden one as much as a listing.
        const limited = { ...principal, access: { kind: "custom", parts: {} } } as const
        for (let i = 0; i < 120; i++) {
          expect(yield* call(limited, "svc_list_workspaces", {})).toMatchObject({ ok: false, status: "forbidden" })
        }
        const refused = yield* Effect.flip(server.call(principal, "svc_list_workspaces", {}))
        expect(refused).toMatchObject({ _tag: "RateLimited", message: expect.stringContaining("120 tool calls") })
        if (refused._tag !== "RateLimited") return
        expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59)
        expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60)
        const other = yield* signUp()
        expect(yield* call(other.principal, "svc_list_workspaces", {})).toMatchObject({ ok: true })
        expect(yield* call({ ...principal, rateLimitExempt: true }, "svc_list_workspaces", {})).toMatchObject({
          ok: true
        })
        yield* TestClock.adjust("60 seconds")
        expect(yield* call(principal, "svc_list_workspaces", {})).toMatchObject({ ok: true })
      })
    )

    it.effect("refuses an unknown name before the rate limit, so typos never use up the minute", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const server = yield* ToolServer
        for (let i = 0; i < 130; i++) {
          const unknown = yield* Effect.flip(server.call(principal, "svc_no_such_tool", {}))
          expect(unknown._tag).toBe("UnknownTool")
        }
        expect(yield* call(principal, "svc_list_workspaces", {})).toMatchObject({ ok: true })
        // Past the limit, an unknown name is still answered as unknown, not as rate-limited.
        for (let i = 0; i < 119; i++) yield* call(principal, "svc_list_workspaces", {})
        expect((yield* Effect.flip(server.call(principal, "svc_list_workspaces", {})))._tag).toBe("RateLimited")
        expect((yield* Effect.flip(server.call(principal, "svc_no_such_tool", {})))._tag).toBe("UnknownTool")
      })
    )

    it.effect("refuses a write tool to an OAuth token without the write scope before the rate limit", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp({ access: readOnlyAccess })
        const server = yield* ToolServer
        const oauth = { ...principal, credential: { kind: "oauth", id: `grant-${principal.credential.id}` } } as const
        for (let i = 0; i < 130; i++) {
          const refused = yield* Effect.flip(server.call(oauth, "svc_create_note", { markdown: "x" }))
          expect(refused).toMatchObject({ _tag: "InsufficientScope", tool: "svc_create_note" })
        }
        // A read tool runs; an API key with the same grant gets a tool failure instead (it cannot step up).
        expect(yield* call(oauth, "svc_list_workspaces", {})).toMatchObject({ ok: true })
        expect(yield* call(principal, "svc_create_note", { markdown: "x" })).toMatchObject({
          ok: false,
          status: "forbidden"
        })
      })
    )
  })
})
