import { randomBytes } from "node:crypto"
import { Ids } from "@svc/core"
import { Effect, Layer } from "effect"

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"

/** `Ids` from the system's random source: the prefix and 20 base-36 characters (~103 bits). */
export const IdsLive = Layer.succeed(Ids, {
  make: (prefix) =>
    Effect.sync(() => {
      const bytes = randomBytes(24)
      let id = prefix
      for (const byte of bytes) {
        if (byte >= 252) continue // 252 = 7 × 36: keeps every character equally likely
        id += ALPHABET[byte % 36]
        if (id.length === prefix.length + 20) return id
      }
      return (
        id +
        randomBytes(8)
          .toString("hex")
          .slice(0, prefix.length + 20 - id.length)
      )
    })
})
