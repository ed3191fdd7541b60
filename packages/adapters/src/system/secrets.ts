import * as crypto from "node:crypto"
import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { Secrets } from "@svc/core/shared"
import { Effect, Layer } from "effect"

// scrypt N=2^15, r=8, p=1: ~32 MiB and tens of milliseconds per hash, OWASP's floor for scrypt.
const N = 32768
const R = 8
const P = 1
const KEY_LENGTH = 32

const derive = (password: string, salt: Buffer, n: number, r: number, p: number) =>
  Effect.async<Buffer>((resume) => {
    scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: 128 * n * r * 2 }, (error, key) => {
      if (error) resume(Effect.die(error))
      else resume(Effect.succeed(key))
    })
  })

// Every call hashes its bearer token (the key of the remembered credential); the one-shot `crypto.hash` (Node
// 20.12+) makes no Hash object. Older Node 20 releases lack it.
const sha256Hex: (text: string) => string =
  typeof crypto.hash === "function"
    ? (text) => crypto.hash("sha256", text, "hex")
    : (text) => createHash("sha256").update(text, "utf8").digest("hex")

/** `Secrets` from Node's crypto: random bytes, SHA-256, scrypt password hashes (`scrypt$N$r$p$salt$hash`). */
export const SecretsLive = Layer.succeed(Secrets, {
  randomBytes: (length) => Effect.sync(() => new Uint8Array(randomBytes(length))),
  sha256Hex: (text) => Effect.sync(() => sha256Hex(text)),
  hashPassword: (password) =>
    Effect.gen(function* () {
      const salt = randomBytes(16)
      const key = yield* derive(password, salt, N, R, P)
      return `scrypt$${N}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`
    }),
  verifyPassword: (password, hash) =>
    Effect.gen(function* () {
      const [scheme, n, r, p, salt, expected] = hash.split("$")
      if (scheme !== "scrypt" || !n || !r || !p || !salt || !expected) return false
      const want = Buffer.from(expected, "base64")
      const got = yield* derive(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p))
      return got.length === want.length && timingSafeEqual(got, want)
    })
})
