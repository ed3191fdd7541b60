import { type Context, Effect } from "effect"
import type { Secrets } from "../../shared/ports.js"

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/** Unpadded base64url (RFC 4648 §5) of bytes; core may not use Node's `Buffer`. */
export const base64Url = (bytes: Uint8Array): string => {
  let out = ""
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0
    const b = bytes[i + 1] ?? 0
    const c = bytes[i + 2] ?? 0
    const n = (a << 16) | (b << 8) | c
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2
    for (let k = 0; k < chars; k++) out += BASE64URL[(n >> (18 - 6 * k)) & 63]
  }
  return out
}

/** The bytes of a lower-case hex string. */
export const hexToBytes = (hex: string): Uint8Array =>
  Uint8Array.from({ length: hex.length / 2 }, (_, i) => Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16))

/** Compares two strings in time that depends only on their lengths. */
export const constantTimeEqual = (a: string, b: string): boolean => {
  let diff = a.length ^ b.length
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0)
  return diff === 0
}

/** Token prefixes, so secret scanners (and people) can tell what a leaked string is. */
export const ACCESS_TOKEN_PREFIX = "svc_oat_"
export const REFRESH_TOKEN_PREFIX = "svc_ort_"
export const CLIENT_SECRET_PREFIX = "svc_ocs_"
export const SESSION_PREFIX = "svc_ses_"

type SecretsShape = Context.Tag.Service<typeof Secrets>

/** A new secret: `prefix` + 256 random bits in base64url. */
export const newSecret = (secrets: SecretsShape, prefix: string): Effect.Effect<string> =>
  Effect.map(secrets.randomBytes(32), (bytes) => prefix + base64Url(bytes))

// RFC 7636 §4.1: 43 to 128 characters of the unreserved set.
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/

/** Whether a PKCE verifier matches an S256 challenge (RFC 7636 §4.6). */
export const pkceMatches = (secrets: SecretsShape, verifier: string, challenge: string): Effect.Effect<boolean> =>
  VERIFIER.test(verifier)
    ? Effect.map(secrets.sha256Hex(verifier), (hex) => constantTimeEqual(base64Url(hexToBytes(hex)), challenge))
    : Effect.succeed(false)

/** Whether a code challenge has the form of an S256 challenge (base64url of 32 bytes: 43 characters). */
export const isS256Challenge = (challenge: string): boolean => /^[A-Za-z0-9\-_]{43}$/.test(challenge)
