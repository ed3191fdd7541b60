/**
 * No N+1 under `workspace { boards }`: the items and connections of every board of a page load together, so one
 * query of 50 boards runs the same few SQL statements as one of 5. Statements are counted from the `sql.execute`
 * span `@effect/sql` (and `LeanSql`) make for each one, through a tracer wrapped around Effect's own.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Tracer } from "effect"
import { TestApp } from "../support/app.js"
import { graphqlClient, mutate, request } from "./support.js"

type Row = Record<string, unknown>

/** How many SQL statements the served app has run so far. */
const statements = { count: 0 }

const CountingTracer = Layer.unwrapEffect(
  Effect.map(Effect.tracer, (native) =>
    Layer.setTracer(
      Tracer.make({
        span: (name, ...rest) => {
          if (name === "sql.execute") statements.count++
          return native.span(name, ...rest)
        },
        context: native.context
      })
    )
  )
)

interface BoardNode {
  readonly id: string
  readonly title: string
  readonly itemCount: number
  readonly items: { readonly nodes: ReadonlyArray<{ readonly id: string; readonly x: number; readonly y: number }> }
  readonly connections: ReadonlyArray<{
    readonly fromItemId: string
    readonly toItemId: string
    readonly boardId: string | null
  }>
}

const boardsQuery = `query($first: Int) { workspace { boards(first: $first) { nodes {
  id title itemCount items { nodes { id x y } } connections { fromItemId toItemId boardId } } } } }`

layer(TestApp.layer.pipe(Layer.provide(CountingTracer)), { timeout: "120 seconds", excludeTestServices: true })(
  "GraphQL batching",
  (it) => {
    describe("workspace { boards { items connections } }", () => {
      it.effect("reads 50 boards with their items and connections in as many statements as 5", () =>
        Effect.gen(function* () {
          const { url, signUp } = yield* TestApp
          const { token } = yield* signUp({})
          const client = graphqlClient(url, token)
          // 104 calls: within the per-minute limit of 120 with the queries below.
          const noteId = (payload: Row) => (payload.note as Row).id as string
          const a = noteId(
            yield* mutate(client, "createNote", { markdown: "# A" }, "... on CreateNotePayload { note { id } }")
          )
          const b = noteId(
            yield* mutate(client, "createNote", { markdown: "# B" }, "... on CreateNotePayload { note { id } }")
          )
          const boards: Array<string> = []
          for (let n = 0; n < 50; n++) {
            const created = yield* mutate(
              client,
              "createBoard",
              { title: `Board ${n}` },
              "... on CreateBoardPayload { board { id } }"
            )
            const boardId = (created.board as Row).id as string
            boards.push(boardId)
            yield* mutate(client, "saveItemsToBoard", {
              boardId,
              items: [
                { itemId: a, x: n, y: 0 },
                { itemId: b, x: n, y: 100 }
              ]
            })
          }
          // Workspace-wide: drawn on every board holding both ends. The one on board 0 only there.
          yield* mutate(client, "connectItems", { fromItemId: a, toItemId: b, label: "everywhere" })
          yield* mutate(client, "connectItems", { fromItemId: b, toItemId: a, boardId: boards[0] })

          const measured = (first: number) =>
            Effect.gen(function* () {
              const before = statements.count
              const answer = yield* request<{ workspace: { boards: { nodes: ReadonlyArray<BoardNode> } } }>(
                client,
                boardsQuery,
                { first }
              )
              return { nodes: answer.workspace.boards.nodes, statements: statements.count - before }
            })
          // Once first: the tool server remembers a found workspace and the key for a few seconds, which the
          // writes above have outlived; the measured queries then differ only in their number of boards.
          yield* measured(5)
          const five = yield* measured(5)
          const fifty = yield* measured(50)

          expect(five.nodes).toHaveLength(5)
          expect(fifty.nodes).toHaveLength(50)
          // Newest first, so board 49 leads and board 0 ends the page.
          expect(fifty.nodes.map((node) => node.id)).toEqual([...boards].reverse())
          for (const [index, node] of fifty.nodes.entries()) {
            const n = 49 - index
            expect(node.title).toBe(`Board ${n}`)
            expect(node.itemCount).toBe(2)
            expect([...node.items.nodes].sort((x, y) => x.y - y.y)).toEqual([
              { id: a, x: n, y: 0 },
              { id: b, x: n, y: 100 }
            ])
            expect(node.connections).toEqual(
              n === 0
                ? [
                    { fromItemId: a, toItemId: b, boardId: null },
                    { fromItemId: b, toItemId: a, boardId: boards[0] }
                  ]
                : [{ fromItemId: a, toItemId: b, boardId: null }]
            )
          }

          // Counted at all (a tracer that saw nothing would pass any bound), then: no more for 50 boards than for 5
          // (but the remembered lookups, the key's and the workspace's, made again should their few seconds end
          // between the two, as a busy full run once saw; a read per board would add 45 or more), and few: the reach
          // check, the list of boards, one read of the boards' items and one of their connections (5 when measured,
          // loading one batch per board instead: 13 and 103).
          expect(five.statements).toBeGreaterThan(0)
          expect(fifty.statements).toBeLessThanOrEqual(five.statements + 2)
          expect(fifty.statements).toBeLessThanOrEqual(8)
        })
      )
    })
  }
)
