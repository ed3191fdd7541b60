import { Effect, Schema } from "effect"
import { FieldProblem, InvalidInput, invalid } from "../shared/errors.js"
import { namesRealDay } from "../shared/time.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { type CellValue, type ColumnType, TableColumn } from "./schema.js"

// Pure rules of table columns and cells: names, kinds, and turning cells by name into cells by column id.

/** The longest column name, in characters. */
export const COLUMN_NAME_MAX_CHARACTERS = LIBRARY_LIMITS.columnNameCharacters

const Columns = Schema.Array(TableColumn)

/** The columns kept in a table item's data. */
export const columnsOf = (data: Readonly<Record<string, unknown>>): ReadonlyArray<TableColumn> =>
  Schema.decodeUnknownOption(Columns)(data.columns).pipe((o) => (o._tag === "Some" ? o.value : []))

/** A clean column name, or a message saying what is wrong with it. */
export const checkColumnName = (path: string, name: string) => {
  const clean = name.trim().replace(/\s+/g, " ")
  if (clean.length === 0) return Effect.fail(invalid(path, "a column name must not be blank"))
  if (clean.length > COLUMN_NAME_MAX_CHARACTERS) {
    return Effect.fail(invalid(path, `a column name is at most ${COLUMN_NAME_MAX_CHARACTERS} characters`))
  }
  return Effect.succeed(clean)
}

/** Fails when two columns share a name (without regard to case) or there are too many or none. */
export const checkColumnSet = (path: string, columns: ReadonlyArray<TableColumn>) => {
  if (columns.length === 0) return Effect.fail(invalid(path, "a table needs at least one column"))
  if (columns.length > LIBRARY_LIMITS.tableColumns) {
    return Effect.fail(invalid(path, `a table has at most ${LIBRARY_LIMITS.tableColumns} columns`))
  }
  const seen = new Set<string>()
  for (const column of columns) {
    const key = column.name.toLowerCase()
    if (seen.has(key))
      return Effect.fail(invalid(path, `two columns would be named "${column.name}"; names must differ`))
    seen.add(key)
  }
  return Effect.void
}

/** Finds a column by id or by name (without regard to case). */
export const findColumn = (columns: ReadonlyArray<TableColumn>, ref: string): TableColumn | undefined =>
  columns.find((c) => c.id === ref) ?? columns.find((c) => c.name.toLowerCase() === ref.trim().toLowerCase())

const DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/

type Checked = { readonly ok: true; readonly value: CellValue } | { readonly ok: false; readonly message: string }
const good = (value: CellValue): Checked => ({ ok: true, value })
const bad = (message: string): Checked => ({ ok: false, message })

const check = (type: ColumnType, value: CellValue): Checked => {
  if (value === null) return good(null)
  switch (type) {
    case "text": {
      const text = String(value)
      return text.length > LIBRARY_LIMITS.cellCharacters
        ? bad(`a cell holds at most ${LIBRARY_LIMITS.cellCharacters} characters`)
        : good(text)
    }
    case "number": {
      const n =
        typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN
      return Number.isFinite(n) ? good(n) : bad(`must be a number (got ${JSON.stringify(value)})`)
    }
    case "boolean":
      if (typeof value === "boolean") return good(value)
      if (value === "true" || value === "false") return good(value === "true")
      return bad(`must be true or false (got ${JSON.stringify(value)})`)
    case "date":
      return typeof value === "string" && DATE.test(value) && namesRealDay(value) && !Number.isNaN(Date.parse(value))
        ? good(value)
        : bad(`must be a date like 2026-11-21 or an ISO 8601 time (got ${JSON.stringify(value)})`)
    case "url":
      return typeof value === "string" && /^https?:\/\//i.test(value) && value.length <= 2048 && URL.canParse(value)
        ? good(value)
        : bad("must be an http or https address of at most 2048 characters")
  }
}

/**
 * Turns cells keyed by column name (or id) into cells keyed by column id, checked against each column's kind
 * (numbers and true/false given as text are accepted). `null` stays `null` (an empty cell). All problems are
 * reported at once.
 */
export const toStoredCells = (
  path: string,
  columns: ReadonlyArray<TableColumn>,
  cells: Readonly<Record<string, CellValue>>
): Effect.Effect<Record<string, CellValue>, InvalidInput> => {
  const out: Record<string, CellValue> = {}
  const problems: Array<FieldProblem> = []
  for (const [key, value] of Object.entries(cells)) {
    const column = findColumn(columns, key)
    const result = column
      ? check(column.type, value)
      : bad(
          `no column "${key}"; the columns are ${columns.map((c) => c.name).join(", ")} (add one with svc_update_table)`
        )
    if (result.ok && column) out[column.id] = result.value
    else if (!result.ok) problems.push(new FieldProblem({ path: `${path}.${key}`, message: result.message }))
  }
  const first = problems[0]
  if (first) {
    return Effect.fail(
      new InvalidInput({
        message: `${first.path} ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : ""}`,
        errors: problems
      })
    )
  }
  return Effect.succeed(out)
}

/** Cells keyed by column id, shown keyed by column name; cells of removed columns are left out. */
export const toNamedCells = (
  columns: ReadonlyArray<TableColumn>,
  cells: Readonly<Record<string, CellValue>>
): Record<string, CellValue> => {
  const out: Record<string, CellValue> = {}
  for (const column of columns) {
    const value = cells[column.id]
    if (value !== undefined && value !== null) out[column.name] = value
  }
  return out
}
