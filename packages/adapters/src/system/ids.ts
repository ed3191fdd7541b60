import { randomBytes } from "node:crypto"
import { Ids } from "@svc/core/shared"
import { Effect, Layer } from "effect"

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"

// Random bytes are drawn a page at a time: a call to the system's generator per id was a measurable share of a
// write (a note and its event take two ids). The bytes are as unpredictable either way; each is used once.
const PAGE_BYTES = 4096
let page = Buffer.alloc(0)
let used = 0

const randomPart = (length: number): Buffer => {
  if (used + length > page.length) {
    page = randomBytes(PAGE_BYTES)
    used = 0
  }
  used += length
  return page.subarray(used - length, used)
}

/** `Ids` from the system's random source: the prefix and 20 base-36 characters (~103 bits). */
export const IdsLive = Layer.succeed(Ids, {
  make: (prefix) =>
    Effect.sync(() => {
      const bytes = randomPart(24)
      let id = prefix
      for (const byte of bytes) {
        if (byte >= 252) continue // 252 = 7 × 36: keeps every character equally likely
        id += ALPHABET[byte % 36]
        if (id.length === prefix.length + 20) return id
      }
      return (
        id +
        randomPart(8)
          .toString("hex")
          .slice(0, prefix.length + 20 - id.length)
      )
    })
})
