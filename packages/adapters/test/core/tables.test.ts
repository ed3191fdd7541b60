import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { call, ok } from "./boards-calls.js"

type Column = { id: string; name: string; type: string }
type TableShape = { id: string; title: string; columns: Array<Column>; rowCount: number }
type Row = { id: string; position: number; cells: Record<string, unknown> }

layer(testCoreLayer(), { timeout: "60 seconds" })(`tables on ${engineName}`, (it) => {
  describe("create, add, read", () => {
    it.effect("creates a typed table with rows, adds more, and reads them in order, paged", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const { table } = yield* ok<{ table: TableShape }>(principal, "svc_create_table", {
          title: "Content calendar",
          columns: [
            { name: "Title" },
            { name: "Views", type: "number" },
            { name: "Done", type: "boolean" },
            { name: "Due", type: "date" },
            { name: "Link", type: "url" }
          ],
          rows: [
            { Title: "Hook video", Views: 1200, Done: true, Due: "2026-12-01" },
            { title: "Thread", views: "42" }
          ]
        })
        expect(table).toMatchObject({ title: "Content calendar", rowCount: 2 })
        expect(table.columns.map((c) => [c.name, c.type])).toEqual([
          ["Title", "text"],
          ["Views", "number"],
          ["Done", "boolean"],
          ["Due", "date"],
          ["Link", "url"]
        ])
        const added = yield* ok<{ table: TableShape; rows: Array<Row> }>(principal, "svc_add_table_rows", {
          tableId: table.id,
          rows: [{ Title: "Carousel", Link: "https://example.com/c", Done: "false" }]
        })
        expect(added.table.rowCount).toBe(3)
        expect(added.rows[0]).toMatchObject({
          position: 3,
          cells: { Title: "Carousel", Link: "https://example.com/c", Done: false }
        })
        const page = yield* ok<{ table: TableShape; rows: Array<Row>; nextCursor?: string }>(
          principal,
          "svc_read_table",
          {
            tableId: table.id,
            limit: 2
          }
        )
        expect(page.rows.map((r) => r.cells)).toEqual([
          { Title: "Hook video", Views: 1200, Done: true, Due: "2026-12-01" },
          { Title: "Thread", Views: 42 }
        ])
        const rest = yield* ok<{ rows: Array<Row>; nextCursor?: string }>(principal, "svc_read_table", {
          tableId: table.id,
          limit: 2,
          cursor: page.nextCursor
        })
        expect(rest.rows.map((r) => r.cells.Title)).toEqual(["Carousel"])
        expect(rest.nextCursor).toBeUndefined()
      })
    )

    it.effect("keeps every row and a distinct position when many adds arrive at once", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const { table } = yield* ok<{ table: TableShape }>(principal, "svc_create_table", {
          title: "Log",
          columns: [{ name: "N", type: "number" }]
        })
        yield* Effect.forEach(
          Array.from({ length: 12 }, (_, i) => i),
          (i) => ok(principal, "svc_add_table_rows", { tableId: table.id, rows: [{ N: i }, { N: i + 100 }] }),
          { concurrency: "unbounded" }
        )
        const read = yield* ok<{ table: TableShape; rows: Array<Row> }>(principal, "svc_read_table", {
          tableId: table.id,
          limit: 100
        })
        expect(read.table.rowCount).toBe(24)
        expect(new Set(read.rows.map((r) => r.position)).size).toBe(24)
        expect(read.rows.map((r) => r.cells.N as number).sort((a, b) => a - b)).toEqual([
          ...Array.from({ length: 12 }, (_, i) => i),
          ...Array.from({ length: 12 }, (_, i) => i + 100)
        ])
      })
    )

    it.effect("refuses cells that do not fit their column, unknown columns, and too many rows", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const { table } = yield* ok<{ table: TableShape }>(principal, "svc_create_table", {
          title: "T",
          columns: [
            { name: "N", type: "number" },
            { name: "U", type: "url" },
            { name: "D", type: "date" }
          ]
        })
        // A day the calendar lacks is refused, where `Date` would have moved 2026-02-30 to 2 March.
        const bad = yield* call(principal, "svc_add_table_rows", {
          tableId: table.id,
          rows: [{ N: "many", U: "ftp://x", D: "2026-02-30" }, { Nope: 1 }]
        })
        expect(bad).toMatchObject({ ok: false, status: "invalid" })
        expect((bad.errors as Array<{ path: string }>).map((e) => e.path)).toEqual([
          "rows.0.N",
          "rows.0.U",
          "rows.0.D",
          "rows.1.Nope"
        ])
        const leap = yield* call(principal, "svc_add_table_rows", {
          tableId: table.id,
          rows: [{ D: "2028-02-29" }, { D: "2026-04-30T10:00:00Z" }]
        })
        expect(leap).toMatchObject({ ok: true })
        const tooMany = yield* call(principal, "svc_add_table_rows", {
          tableId: table.id,
          rows: Array.from({ length: 501 }, () => ({ N: 1 }))
        })
        expect(tooMany).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "rows" }] })
        const dupColumns = yield* call(principal, "svc_create_table", {
          title: "D",
          columns: [{ name: "A" }, { name: "a" }]
        })
        expect(dupColumns).toMatchObject({ ok: false, status: "invalid" })
        const read = yield* ok<{ table: TableShape }>(principal, "svc_read_table", { tableId: table.id })
        expect(read.table.rowCount).toBe(2)
      })
    )
  })

  describe("update rows and columns", () => {
    it.effect("an update keeps the cells it leaves out and empties the ones given as null", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const { table } = yield* ok<{ table: TableShape }>(principal, "svc_create_table", {
          title: "Cities",
          columns: [{ name: "Name" }, { name: "Country" }, { name: "People", type: "number" }],
          rows: [{ Name: "Lyon", Country: "France", People: 522_000 }]
        })
        const [lyon] = (yield* ok<{ rows: Array<Row> }>(principal, "svc_read_table", { tableId: table.id })).rows
        yield* ok(principal, "svc_update_table_rows", {
          tableId: table.id,
          rows: [{ rowId: lyon?.id, cells: { people: 523_000, Country: null } }]
        })
        const after = yield* ok<{ rows: Array<Row> }>(principal, "svc_read_table", { tableId: table.id })
        expect(after.rows.map((row) => row.cells)).toEqual([{ Name: "Lyon", People: 523_000 }])
      })
    )

    it.effect("changes and deletes rows, then renames, removes, adds and reorders columns", () =>
      Effect.gen(function* () {
        const { principal } = yield* signUp()
        const { table } = yield* ok<{ table: TableShape }>(principal, "svc_create_table", {
          title: "People",
          columns: [{ name: "Name" }, { name: "Age", type: "number" }, { name: "City" }],
          rows: [{ Name: "Ada", Age: 36, City: "London" }, { Name: "Alan", Age: 41 }, { Name: "Grace" }]
        })
        const read = yield* ok<{ rows: Array<Row> }>(principal, "svc_read_table", { tableId: table.id })
        const [ada, alan, grace] = read.rows as [Row, Row, Row]
        const updated = yield* ok<{ table: TableShape; rows: Array<Row>; deletedRowIds: Array<string> }>(
          principal,
          "svc_update_table_rows",
          { tableId: table.id, rows: [{ rowId: ada.id, cells: { Age: 37, City: null } }], deleteRowIds: [alan.id] }
        )
        expect(updated.rows).toEqual([expect.objectContaining({ id: ada.id, cells: { Name: "Ada", Age: 37 } })])
        expect(updated.deletedRowIds).toEqual([alan.id])
        expect(updated.table.rowCount).toBe(2)
        const missing = yield* call(principal, "svc_update_table_rows", { tableId: table.id, deleteRowIds: [alan.id] })
        expect(missing).toMatchObject({ ok: false, status: "not-found" })

        const reshaped = yield* ok<{ table: TableShape }>(principal, "svc_update_table", {
          tableId: table.id,
          title: "Pioneers",
          renameColumns: [{ column: "name", name: "Full name" }],
          removeColumns: ["City"],
          addColumns: [{ name: "Born", type: "date" }],
          columnOrder: ["Born"]
        })
        expect(reshaped.table.title).toBe("Pioneers")
        expect(reshaped.table.columns.map((c) => c.name)).toEqual(["Born", "Full name", "Age"])
        yield* ok(principal, "svc_update_table_rows", {
          tableId: table.id,
          rows: [{ rowId: grace.id, cells: { born: "1906-12-09" } }]
        })
        const after = yield* ok<{ rows: Array<Row> }>(principal, "svc_read_table", { tableId: table.id })
        expect(after.rows.map((r) => r.cells)).toEqual([
          { "Full name": "Ada", Age: 37 },
          { Born: "1906-12-09", "Full name": "Grace" }
        ])
        const unknown = yield* call(principal, "svc_update_table", { tableId: table.id, removeColumns: ["Nope"] })
        expect(unknown).toMatchObject({ ok: false, status: "invalid", errors: [{ path: "removeColumns.0" }] })
        const allGone = yield* call(principal, "svc_update_table", {
          tableId: table.id,
          removeColumns: ["Born", "Full name", "Age"]
        })
        expect(allGone).toMatchObject({ ok: false, status: "invalid" })
      })
    )

    it.effect("answers not-found for another workspace's table", () =>
      Effect.gen(function* () {
        const alice = yield* signUp()
        const bob = yield* signUp()
        const { table } = yield* ok<{ table: TableShape }>(alice.principal, "svc_create_table", {
          title: "Secret",
          columns: [{ name: "A" }]
        })
        for (const [name, args] of [
          ["svc_read_table", { tableId: table.id }],
          ["svc_add_table_rows", { tableId: table.id, rows: [{ A: "x" }] }],
          ["svc_update_table_rows", { tableId: table.id, deleteRowIds: ["row_x"] }],
          ["svc_update_table", { tableId: table.id, title: "Mine" }]
        ] as const) {
          expect(yield* call(bob.principal, name, args), name).toMatchObject({ ok: false, status: "not-found" })
        }
      })
    )
  })
})
