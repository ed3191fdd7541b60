import { describe, expect, it } from "@effect/vitest"
import { Ids } from "@svc/core/shared"
import { Effect } from "effect"
import { IdsLive } from "../../src/system/ids.js"

describe("ids from the system's random source", () => {
  it.effect("are the prefix and 20 base-36 characters, never repeated, each character as likely as any", () =>
    Effect.gen(function* () {
      const ids = yield* Ids
      // Enough ids to draw several pages of random bytes, so page boundaries are crossed.
      const made = yield* Effect.all(Array.from({ length: 5_000 }, () => ids.make("note_")))
      for (const id of made) expect(id).toMatch(/^note_[0-9a-z]{20}$/)
      expect(new Set(made).size).toBe(made.length)
      const counts = new Map<string, number>()
      for (const id of made) for (const c of id.slice(5)) counts.set(c, (counts.get(c) ?? 0) + 1)
      expect(counts.size).toBe(36)
      // 100,000 characters over 36 symbols: ~2,778 each; a skew such as reused bytes would be far outside this.
      for (const count of counts.values()) expect(count).toBeGreaterThan(2_400)
      for (const count of counts.values()) expect(count).toBeLessThan(3_150)
    }).pipe(Effect.provide(IdsLive))
  )
})
