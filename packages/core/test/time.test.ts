import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { DateInput, isCalendarDay, namesRealDay } from "../src/shared/time.js"

describe("calendar days", () => {
  it("knows the days each month has, leap years included", () => {
    expect(["2026-01-31", "2028-02-29", "2000-02-29", "2026-04-30T10:00:00Z"].map(namesRealDay)).toEqual([
      true,
      true,
      true,
      true
    ])
    expect(
      ["2026-02-29", "1900-02-29", "2026-02-30", "2026-04-31", "2026-13-01", "2026-00-10", "soon"].map(namesRealDay)
    ).toEqual([false, false, false, false, false, false, false])
  })

  it("takes exactly YYYY-MM-DD as a calendar day", () => {
    expect(isCalendarDay("2028-02-29")).toBe(true)
    expect(["2026-02-29", "2026-03-01T00:00:00Z", "2026-3-1", " 2026-03-01"].map(isCalendarDay)).toEqual([
      false,
      false,
      false,
      false
    ])
  })

  it("takes a date input only on a real day, where Date would move 2026-02-30 to 2 March", () => {
    const decode = Schema.decodeUnknownEither(DateInput)
    expect(decode("2026-03-02")).toEqual(Either.right(new Date("2026-03-02")))
    expect(Either.isLeft(decode("2026-02-30"))).toBe(true)
    expect(Either.isLeft(decode("2026-02-30T10:00:00Z"))).toBe(true)
    expect(Either.isLeft(decode("yesterday"))).toBe(true)
  })
})
