import { describe, expect, it } from "@effect/vitest"
import { crc32, displayPrefix, isWellFormedToken, TOKEN_PREFIX, tokenFromRandom } from "../src/auth/token.js"

const bytes = (seed: number) => Uint8Array.from({ length: 48 }, (_, i) => (i * 37 + seed * 11) % 248)

describe("personal access tokens", () => {
  it("have the svc_pat_ prefix, 30 random characters and a 6-character checksum", () => {
    const token = tokenFromRandom(bytes(1))
    expect(token).toMatch(/^svc_pat_[0-9A-Za-z]{36}$/)
    expect(isWellFormedToken(token ?? "")).toBe(true)
  })

  it("reject a token with one character changed", () => {
    const token = tokenFromRandom(bytes(2)) ?? ""
    const at = TOKEN_PREFIX.length + 5
    const flipped = token.slice(0, at) + (token[at] === "a" ? "b" : "a") + token.slice(at + 1)
    expect(isWellFormedToken(flipped)).toBe(false)
  })

  it("reject other shapes", () => {
    expect(isWellFormedToken("")).toBe(false)
    expect(isWellFormedToken("svc_pat_short")).toBe(false)
    expect(isWellFormedToken(`ghp_${"a".repeat(36)}`)).toBe(false)
    expect(isWellFormedToken(`${TOKEN_PREFIX}${"!".repeat(36)}`)).toBe(false)
  })

  it("skip biased bytes and give up when too few remain", () => {
    expect(tokenFromRandom(new Uint8Array(48).fill(250))).toBeUndefined()
  })

  it("compute the standard CRC-32", () => {
    expect(crc32("123456789")).toBe(0xcbf43926)
  })

  it("show only a short prefix later", () => {
    expect(displayPrefix(tokenFromRandom(bytes(3)) ?? "")).toHaveLength(TOKEN_PREFIX.length + 4)
  })
})
