/** The metrics schedule of a published post (it slows as the post ages, then stops) and the comparison of figures. */
import { describe, expect, it } from "@effect/vitest"
import { compare, fetchBackoffMs, nextFetchAt } from "../src/analytics/schema.js"

const POSTED = new Date("2026-12-01T08:00:00.000Z")
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const after = (ms: number) => new Date(POSTED.getTime() + ms)
const wait = (ageMs: number) => {
  const next = nextFetchAt(POSTED, after(ageMs))
  return next === null ? null : next.getTime() - POSTED.getTime() - ageMs
}

describe("the metrics schedule", () => {
  it("fetches every 15 minutes the first day, hourly to day 7, daily to day 30, weekly to day 90, then never", () => {
    expect(wait(0)).toBe(15 * MINUTE)
    expect(wait(23 * HOUR)).toBe(15 * MINUTE)
    expect(wait(DAY)).toBe(HOUR)
    expect(wait(6 * DAY + 23 * HOUR)).toBe(HOUR)
    expect(wait(7 * DAY)).toBe(DAY)
    expect(wait(29 * DAY)).toBe(DAY)
    expect(wait(30 * DAY)).toBe(7 * DAY)
    // The last weekly step ends at day 90 exactly; a fetch then is the last.
    expect(wait(86 * DAY)).toBe(4 * DAY)
    expect(wait(90 * DAY)).toBeNull()
    expect(wait(400 * DAY)).toBeNull()
    // A test or demo server fetches more often in the first day only.
    expect(nextFetchAt(POSTED, after(HOUR), 30_000)?.getTime()).toBe(POSTED.getTime() + HOUR + 30_000)
    expect(nextFetchAt(POSTED, after(2 * DAY), 30_000)?.getTime()).toBe(POSTED.getTime() + 2 * DAY + HOUR)
  })

  it("backs off 5 minutes doubling, at most 6 hours", () => {
    expect([1, 2, 3, 4, 10].map(fetchBackoffMs)).toEqual([5 * MINUTE, 10 * MINUTE, 20 * MINUTE, 40 * MINUTE, 6 * HOUR])
  })

  it("compares a figure with the period before in percent, null when there is nothing to compare with", () => {
    expect(compare(15, 10)).toEqual({ value: 15, previous: 10, changePercent: 50 })
    expect(compare(1, 3)).toEqual({ value: 1, previous: 3, changePercent: -66.7 })
    expect(compare(4, 0).changePercent).toBeNull()
    expect(compare(4, null).changePercent).toBeNull()
    expect(compare(null, 4).changePercent).toBeNull()
  })
})
