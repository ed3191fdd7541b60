import {
  EVENT_HEADER,
  EVENT_ID_HEADER,
  headerValue,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  type WebhookHeaders
} from "./headers.js"

/** Why a delivery was not accepted. */
export type WebhookRejection = "missing_header" | "bad_timestamp" | "outside_tolerance" | "bad_signature" | "bad_body"

/** The envelope every delivery carries, before its `data` is typed by event type (see `constructEvent`). */
export interface WebhookEnvelope {
  readonly id: string
  readonly type: string
  readonly created_at: string
  readonly store: { readonly handle: string | null }
  readonly data: Readonly<Record<string, unknown>>
}

/** A verified delivery: the parsed envelope and the attempt's signing time. */
export interface VerifiedWebhook {
  readonly event: WebhookEnvelope
  /** `X-Svc-Timestamp`: when this attempt was signed (ms since the epoch). */
  readonly timestampMs: number
}

/** Options of `verifyWebhook` and `constructEvent`. */
export interface VerifyOptions {
  /** How far the signing time may be from now, either way; default 5 minutes. */
  readonly toleranceMs?: number
}

/** What one verification came to: the delivery, or why it must not be trusted. */
export type VerificationOutcome =
  | ({ readonly ok: true } & VerifiedWebhook)
  | { readonly ok: false; readonly reason: WebhookRejection; readonly message: string }

const DEFAULT_TOLERANCE_MS = 5 * 60_000
const encoder = new TextEncoder()

const hexToBytes = (hex: string): Uint8Array | undefined => {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return undefined
  const bytes = new Uint8Array(32)
  for (let i = 0; i < 32; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

// Every byte is compared whatever the first difference, so the time taken says nothing about the digest.
const equalInConstantTime = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return difference === 0
}

const hmac = async (secret: string, message: Uint8Array): Promise<Uint8Array> => {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign"
  ])
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, message))
}

const concat = (a: Uint8Array, b: Uint8Array) => {
  const joined = new Uint8Array(a.length + b.length)
  joined.set(a, 0)
  joined.set(b, a.length)
  return joined
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isEnvelope = (value: unknown): value is WebhookEnvelope =>
  isObject(value) &&
  typeof value.id === "string" &&
  typeof value.type === "string" &&
  typeof value.created_at === "string" &&
  isObject(value.store) &&
  isObject(value.data)

const parseJson = (text: string): { readonly json: unknown } | undefined => {
  try {
    return { json: JSON.parse(text) }
  } catch {
    return undefined
  }
}

const refused = (reason: WebhookRejection, message: string): VerificationOutcome => ({ ok: false, reason, message })

/**
 * The one verification both faces share, with `nowMs` given (the Promise face reads `Date.now()`, the Effect face
 * `Clock`): the timestamp must be within the tolerance of now, and one of the `sha256=` signatures must equal the
 * HMAC-SHA256 of `<timestamp>.<raw body>` under one of the secrets.
 */
export const verifyAt = async (
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | ReadonlyArray<string>,
  nowMs: number,
  options: VerifyOptions = {}
): Promise<VerificationOutcome> => {
  const signatureHeader = headerValue(headers, SIGNATURE_HEADER)
  const timestampHeader = headerValue(headers, TIMESTAMP_HEADER)
  if (signatureHeader === undefined || timestampHeader === undefined) {
    return refused("missing_header", `${SIGNATURE_HEADER} and ${TIMESTAMP_HEADER} are both required`)
  }
  if (!/^\d{1,16}$/.test(timestampHeader)) {
    return refused("bad_timestamp", `${TIMESTAMP_HEADER} must be milliseconds since the epoch`)
  }
  const timestampMs = Number(timestampHeader)
  const tolerance = options.toleranceMs ?? DEFAULT_TOLERANCE_MS
  if (Math.abs(nowMs - timestampMs) > tolerance) {
    return refused("outside_tolerance", `signed ${nowMs - timestampMs} ms ago; the tolerance is ${tolerance} ms`)
  }
  const offered = signatureHeader
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.startsWith("sha256="))
    .map((part) => hexToBytes(part.slice("sha256=".length)))
    .filter((bytes): bytes is Uint8Array => bytes !== undefined)
  const body = typeof rawBody === "string" ? encoder.encode(rawBody) : rawBody
  const message = concat(encoder.encode(`${timestampHeader}.`), body)
  let matched = false
  for (const candidate of typeof secret === "string" ? [secret] : secret) {
    const expected = await hmac(candidate, message)
    // No early exit: every offered signature is compared against every secret.
    for (const signature of offered) matched = equalInConstantTime(expected, signature) || matched
  }
  if (!matched) return refused("bad_signature", "no signature matches the body under the given secret")
  const parsed = parseJson(new TextDecoder().decode(body))
  if (parsed === undefined) return refused("bad_body", "the signed body is not JSON")
  const event = parsed.json
  if (!isEnvelope(event)) return refused("bad_body", "the signed body is not an event envelope")
  const eventId = headerValue(headers, EVENT_ID_HEADER)
  const eventType = headerValue(headers, EVENT_HEADER)
  if ((eventId !== undefined && eventId !== event.id) || (eventType !== undefined && eventType !== event.type)) {
    return refused("bad_body", `${EVENT_ID_HEADER}/${EVENT_HEADER} do not match the signed body`)
  }
  return { ok: true, event, timestampMs }
}

/** A delivery that must not be trusted; answer it with 400 (or 401) and do not act on it. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError"
  constructor(
    /** What was wrong with the delivery. */
    readonly reason: WebhookRejection,
    message: string
  ) {
    super(message)
  }
}

/**
 * Verifies a delivery over its raw body bytes (before any JSON parsing): resolves with the envelope, or rejects with
 * a `WebhookVerificationError` whose `reason` says what was wrong. Give two secrets while a rolled secret's grace
 * period lasts.
 */
export const verifyWebhook = async (
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | ReadonlyArray<string>,
  options: VerifyOptions = {}
): Promise<VerifiedWebhook> => {
  const outcome = await verifyAt(rawBody, headers, secret, Date.now(), options)
  if (!outcome.ok) throw new WebhookVerificationError(outcome.reason, outcome.message)
  return { event: outcome.event, timestampMs: outcome.timestampMs }
}
