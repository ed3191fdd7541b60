/** The `no-store` caching headers of every page and OAuth answer (RFC 6749 §5.1): they carry sessions and tokens. */
export const noStore = { "cache-control": "no-store", pragma: "no-cache" } as const

/**
 * The headers every page sends: never cached; no scripts at all; styles only from our own stylesheet; never inside a
 * frame (clickjacking of Approve, Unsubscribe or Revoke).
 */
export const pageHeaders = {
  ...noStore,
  "content-security-policy":
    "default-src 'none'; style-src 'self'; img-src 'self' data:; media-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  // `same-origin` keeps `Origin` on our own form posts (no-referrer would turn it into "null").
  "referrer-policy": "same-origin"
} as const
