/**
 * `workspace(id)` over the real endpoint: each list a connection on the tools' own paging (the same rows as the
 * tool), a board with x/y and its connections, a note, a table, tags, and the workspace reach of the tool server.
 */
import { describe, expect, layer } from "@effect/vitest"
import { readOnlyAccess } from "@svc/core/auth"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { graphqlClient, mutate, postGraphql, request } from "./support.js"

type Row = Record<string, unknown>
type Connection<A = Row> = {
  edges: Array<{ cursor: string | null; node: A }>
  nodes: Array<A>
  pageInfo: { hasNextPage: boolean; endCursor: string | null }
}

/** A tool's answer over the REST face, to compare with. */
const callTool = <A>(url: string, token: string, name: string, args: Record<string, unknown>) =>
  Effect.promise(() =>
    fetch(`${url}/v1/tools/${name}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(args)
    }).then((response) => response.json() as Promise<A>)
  )

layer(TestApp.layer, { timeout: "120 seconds", excludeTestServices: true })("GraphQL workspace", (it) => {
  describe("workspace(id)", () => {
    it.effect("pages items like svc_list_workspace_items, filters, and searches", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp({})
        const client = graphqlClient(url, token)
        for (const n of [1, 2, 3, 4, 5]) {
          yield* mutate(client, "createNote", { markdown: `# Note ${n}\n\nabout zebras ${n}` }, "")
        }
        yield* mutate(client, "createBoard", { title: "Plan" }, "")
        const page = (after: string | null) =>
          request<{ workspace: { items: Connection } }>(
            client,
            `query($after: String) { workspace { items(first: 2, after: $after) {
               edges { cursor node { id title type } } nodes { id } pageInfo { hasNextPage endCursor } } } }`,
            { after }
          )
        const seen: Array<string> = []
        let after: string | null = null
        for (let guard = 0; guard < 10; guard++) {
          const { workspace }: { workspace: { items: Connection } } = yield* page(after)
          seen.push(...workspace.items.nodes.map((node) => String(node.id)))
          if (!workspace.items.pageInfo.hasNextPage) break
          after = workspace.items.pageInfo.endCursor
        }
        const viaTool = yield* callTool<{ items: Array<{ id: string }> }>(url, token, "svc_list_workspace_items", {
          limit: 100
        })
        expect(seen).toEqual(viaTool.items.map((item) => item.id))
        expect(seen).toHaveLength(6)

        const boards = yield* request<{ workspace: { items: Connection } }>(
          client,
          `{ workspace { items(type: board) { nodes { title type } } } }`
        )
        expect(boards.workspace.items.nodes).toEqual([{ title: "Plan", type: "board" }])

        const found = yield* request<{ workspace: { search: Connection } }>(
          client,
          `{ workspace { search(query: "zebras", first: 10) { nodes { title } pageInfo { hasNextPage } } } }`
        )
        expect(found.workspace.search.nodes.map((node) => node.title).sort()).toEqual([
          "Note 1",
          "Note 2",
          "Note 3",
          "Note 4",
          "Note 5"
        ])
      })
    )

    it.effect("reads a board with x/y and connections, a note, a table, tags and highlights", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const { token } = yield* signUp({})
        const client = graphqlClient(url, token)
        const note = (yield* mutate(
          client,
          "createNote",
          { markdown: "# Idea\n\nThe body." },
          "... on CreateNotePayload { note { id } }"
        )).note as Row
        const other = (yield* mutate(
          client,
          "createNote",
          { markdown: "# Other" },
          "... on CreateNotePayload { note { id } }"
        )).note as Row
        const board = (yield* mutate(
          client,
          "createBoard",
          { title: "Canvas" },
          "... on CreateBoardPayload { board { id } }"
        )).board as Row
        yield* mutate(
          client,
          "saveItemsToBoard",
          {
            boardId: board.id,
            items: [
              { itemId: note.id, x: 10, y: 20 },
              { itemId: other.id, x: -5, y: 7.5 }
            ]
          },
          ""
        )
        yield* mutate(
          client,
          "connectItems",
          { fromItemId: note.id, toItemId: other.id, label: "leads to", boardId: board.id },
          ""
        )
        yield* mutate(client, "updateItemTags", { itemIds: [note.id], add: ["alpha", "Beta"] }, "")
        const table = (yield* mutate(
          client,
          "createTable",
          {
            title: "Scores",
            columns: [{ name: "Name" }, { name: "Score", type: "number" }],
            rows: [
              { Name: "a", Score: 1 },
              { Name: "b", Score: 2 },
              { Name: "c", Score: 3 }
            ]
          },
          "... on CreateTablePayload { table { id } }"
        )).table as Row

        const answer = yield* request<{ workspace: Record<string, unknown> }>(
          client,
          `query($board: String!, $note: String!, $table: String!) { workspace {
             board(id: $board) { id title itemCount items { nodes { id x y title item { id type } } } connections { fromItemId toItemId label boardId } }
             note(id: $note) { id title markdown }
             table(id: $table, first: 2) { title columns { name type } rowCount rows { nodes { cells } pageInfo { hasNextPage endCursor } } }
             tags { nodes { name itemCount } }
             highlights { nodes { id } pageInfo { hasNextPage } }
           } }`,
          { board: board.id, note: note.id, table: table.id }
        )
        const workspace = answer.workspace
        expect(workspace.board).toMatchObject({ id: board.id, title: "Canvas", itemCount: 2 })
        const items = (workspace.board as { items: Connection }).items.nodes
        expect(items).toEqual(
          expect.arrayContaining([
            { id: note.id, x: 10, y: 20, title: "Idea", item: { id: note.id, type: "note" } },
            { id: other.id, x: -5, y: 7.5, title: "Other", item: { id: other.id, type: "note" } }
          ])
        )
        expect((workspace.board as { connections: Array<Row> }).connections).toEqual([
          { fromItemId: note.id, toItemId: other.id, label: "leads to", boardId: board.id }
        ])
        expect(workspace.note).toEqual({ id: note.id, title: "Idea", markdown: "# Idea\n\nThe body." })
        const read = workspace.table as { title: string; columns: Array<Row>; rowCount: number; rows: Connection }
        expect(read.title).toBe("Scores")
        expect(read.columns).toEqual([
          { name: "Name", type: "text" },
          { name: "Score", type: "number" }
        ])
        expect(read.rowCount).toBe(3)
        expect(read.rows.nodes.map((row) => row.cells)).toEqual([
          { Name: "a", Score: 1 },
          { Name: "b", Score: 2 }
        ])
        expect(read.rows.pageInfo.hasNextPage).toBe(true)
        const rest = yield* request<{ workspace: { table: { rows: Connection } } }>(
          client,
          `query($table: String!, $after: String) { workspace { table(id: $table, first: 2, after: $after) { rows { nodes { cells } pageInfo { hasNextPage } } } } }`,
          { table: table.id, after: read.rows.pageInfo.endCursor }
        )
        expect(rest.workspace.table.rows.nodes.map((row) => row.cells)).toEqual([{ Name: "c", Score: 3 }])
        expect((workspace.tags as Connection).nodes).toEqual([
          { name: "alpha", itemCount: 1 },
          { name: "Beta", itemCount: 1 }
        ])
        expect((workspace.highlights as Connection).nodes).toEqual([])

        // The board's items page on (the second page comes from svc_read_board itself).
        const first = yield* request<{ workspace: { board: { items: Connection } } }>(
          client,
          `query($board: String!) { workspace { board(id: $board) { items(first: 1) { nodes { id } pageInfo { hasNextPage endCursor } } } } }`,
          { board: board.id }
        )
        const second = yield* request<{ workspace: { board: { items: Connection } } }>(
          client,
          `query($board: String!, $after: String) { workspace { board(id: $board) { items(first: 1, after: $after) { nodes { id } pageInfo { hasNextPage } } } } }`,
          { board: board.id, after: first.workspace.board.items.pageInfo.endCursor }
        )
        expect(first.workspace.board.items.pageInfo.hasNextPage).toBe(true)
        expect(
          [...first.workspace.board.items.nodes, ...second.workspace.board.items.nodes].map((n) => n.id).sort()
        ).toEqual([note.id, other.id].sort())
        expect(second.workspace.board.items.pageInfo.hasNextPage).toBe(false)

        // The batched first page is the tool's: the same items, connections and next cursor.
        const tool = yield* callTool<{ items: Array<Row>; connections: Array<Row>; nextCursor?: string }>(
          url,
          token,
          "svc_read_board",
          { boardId: board.id, limit: 1 }
        )
        const batched = yield* request<{ workspace: { board: { items: Connection; connections: Array<Row> } } }>(
          client,
          `query($board: String!) { workspace { board(id: $board) {
             items(first: 1) { nodes { id type title url x y addedAt } pageInfo { endCursor } }
             connections(first: 1) { id fromItemId toItemId label boardId createdAt } } } }`,
          { board: board.id }
        )
        expect(batched.workspace.board.items.nodes).toEqual(tool.items)
        expect(batched.workspace.board.items.pageInfo.endCursor).toBe(tool.nextCursor)
        expect(batched.workspace.board.connections).toEqual(tool.connections)

        // A trashed item leaves the board; a trashed board is not found.
        yield* mutate(client, "trashItem", { itemId: other.id }, "")
        const fewer = yield* request<{ workspace: { board: { itemCount: number; items: Connection } } }>(
          client,
          `query($board: String!) { workspace { board(id: $board) { itemCount items { nodes { id } } connections { id } } } }`,
          { board: board.id }
        )
        expect(fewer.workspace.board).toMatchObject({
          itemCount: 1,
          items: { nodes: [{ id: note.id }] },
          connections: []
        })
        yield* mutate(client, "trashBoard", { boardId: board.id }, "")
        const gone = yield* Effect.promise(() =>
          postGraphql(url, token, {
            query: "query($id: String!) { workspace { board(id: $id) { title } } }",
            variables: { id: board.id }
          })
        )
        expect(gone.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND")
      })
    )

    it.effect("another account's workspace or board is NOT_FOUND; a read-only key reads", () =>
      Effect.gen(function* () {
        const { url, signUp } = yield* TestApp
        const ann = yield* signUp({})
        const bob = yield* signUp({})
        const annClient = graphqlClient(url, ann.token)
        const annBoard = (yield* mutate(
          annClient,
          "createBoard",
          { title: "Ann's" },
          "... on CreateBoardPayload { board { id } }"
        )).board as Row
        const annWorkspace = yield* request<{ workspace: { id: string } }>(annClient, "{ workspace { id } }")

        const foreign = yield* Effect.promise(() =>
          postGraphql(url, bob.token, {
            query: "query($id: String) { workspace(id: $id) { id items { nodes { id } } } }",
            variables: { id: annWorkspace.workspace.id }
          })
        )
        expect(foreign.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND")
        const foreignBoard = yield* Effect.promise(() =>
          postGraphql(url, bob.token, {
            query: "query($id: String!) { workspace { board(id: $id) { title } } }",
            variables: { id: annBoard.id }
          })
        )
        expect(foreignBoard.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND")

        const reader = yield* signUp({ access: readOnlyAccess })
        const read = yield* Effect.promise(() =>
          postGraphql(url, reader.token, {
            query:
              "{ workspace { id items { nodes { id } } boards { nodes { id items { nodes { id } } connections { id } } } tags { nodes { name } } } }"
          })
        )
        expect(read.body.errors).toBeUndefined()
        expect(read.body.data?.workspace).toMatchObject({ items: { nodes: [] }, boards: { nodes: [] } })
      })
    )
  })
})
