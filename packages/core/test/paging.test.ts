import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { decodeCursor, encodeCursor, pageOf } from "../src/shared/paging.js"

describe("keyset paging", () => {
  it("round-trips a cursor", () => {
    const key = { createdAt: new Date("2026-11-21T10:00:00.123Z"), id: "note_abc.def" }
    expect(decodeCursor(encodeCursor(key))).toEqual(Either.right(key))
  })

  it("refuses a cursor it did not make, on the cursor field", () => {
    const result = decodeCursor("not a cursor!")
    expect(Either.isLeft(result) && result.left.errors[0]?.path).toBe("cursor")
    expect(Either.isLeft(decodeCursor(encodeCursor({ createdAt: new Date(0), id: "" })))).toBe(true)
  })

  it("keeps limit rows and points past the last one when more exist", () => {
    const rows = [3, 2, 1].map((n) => ({ id: `r${n}`, createdAt: new Date(n) }))
    expect(pageOf(rows, 2)).toEqual({ rows: rows.slice(0, 2), next: { id: "r2", createdAt: new Date(2) } })
    expect(pageOf(rows, 3).next).toBeUndefined()
  })
})
