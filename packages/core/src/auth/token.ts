/**
 * Personal access tokens: `svc_pat_` + 30 base62 characters of randomness (~178 bits)
 * + 6 base62 characters of CRC-32 over the random part. The checksum lets us (and
 * secret scanners) reject a mistyped or made-up token without touching storage.
 */
export const TOKEN_PREFIX = "svc_pat_"
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const RANDOM_LENGTH = 30
const CHECKSUM_LENGTH = 6

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

/** CRC-32 (IEEE) of an ASCII string. */
export const crc32 = (text: string): number => {
  let crc = 0xffffffff
  for (let i = 0; i < text.length; i++) crc = (crcTable[(crc ^ text.charCodeAt(i)) & 0xff] ?? 0) ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

const base62 = (value: number, width: number): string => {
  let out = ""
  let rest = value
  for (let i = 0; i < width; i++) {
    out = ALPHABET[rest % 62] + out
    rest = Math.floor(rest / 62)
  }
  return out
}

/** Builds a token from at least 30 random bytes (each byte picks one character, without modulo bias). */
export const tokenFromRandom = (bytes: Uint8Array): string | undefined => {
  let body = ""
  for (const byte of bytes) {
    if (byte >= 248) continue // 248 = 4 × 62: larger values would favour the first characters
    body += ALPHABET[byte % 62]
    if (body.length === RANDOM_LENGTH) break
  }
  return body.length === RANDOM_LENGTH ? `${TOKEN_PREFIX}${body}${base62(crc32(body), CHECKSUM_LENGTH)}` : undefined
}

/** Whether `token` has the form and the checksum of a personal access token. */
export const isWellFormedToken = (token: string): boolean => {
  if (!token.startsWith(TOKEN_PREFIX) || token.length !== TOKEN_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH) {
    return false
  }
  const body = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + RANDOM_LENGTH)
  for (const char of body) if (!ALPHABET.includes(char)) return false
  return token.slice(TOKEN_PREFIX.length + RANDOM_LENGTH) === base62(crc32(body), CHECKSUM_LENGTH)
}

/** The part of a token safe to show again later (`svc_pat_AbCd`), to tell keys apart. */
export const displayPrefix = (token: string): string => token.slice(0, TOKEN_PREFIX.length + 4)
