// The webhook contract alone, not the core's index: a receiver should not load the whole service.
import {
  EVENT_HEADER,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  type WebhookEnvelope
} from "@svc/core/webhook-contract"
import { Clock, Effect, Either, Schema } from "effect"

/** Why a delivery was not accepted. */
export const WebhookRejection = Schema.Literal(
  "missing_header",
  "bad_timestamp",
  "outside_tolerance",
  "bad_signature",
  "bad_body"
)
export type WebhookRejection = typeof WebhookRejection.Type

/** A delivery that must not be trusted; answer it with 400 (or 401) and do not act on it. */
export class WebhookVerificationError extends Schema.TaggedError<WebhookVerificationError>()(
  "WebhookVerificationError",
  { reason: WebhookRejection, message: Schema.String }
) {}

/** A verified delivery: the parsed envelope and the attempt's signing time. */
export interface VerifiedWebhook {
  readonly event: WebhookEnvelope
  /** `X-Svc-Timestamp`: when this attempt was signed (ms since the epoch). */
  readonly timestampMs: number
}

/** Request headers as fetch (`Headers`) or Node's `IncomingMessage.headers` give them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** Options of `verifyWebhook`. */
export interface VerifyOptions {
  /** How far the signing time may be from now, either way; default 5 minutes. */
  readonly toleranceMs?: number
}

const DEFAULT_TOLERANCE_MS = 5 * 60_000
const encoder = new TextEncoder()

const header = (headers: WebhookHeaders, name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  const wanted = name.toLowerCase()
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return typeof value === "string" ? value : value?.[0]
  }
  return undefined
}

const reject = (reason: WebhookRejection, message: string) => new WebhookVerificationError({ reason, message })

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

const hmac = (secret: string, message: Uint8Array) =>
  Effect.promise(async () => {
    const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign"
    ])
    return new Uint8Array(await crypto.subtle.sign("HMAC", key, message))
  })

const concat = (a: Uint8Array, b: Uint8Array) => {
  const joined = new Uint8Array(a.length + b.length)
  joined.set(a, 0)
  joined.set(b, a.length)
  return joined
}

const isEnvelope = (value: unknown): value is WebhookEnvelope =>
  typeof value === "object" &&
  value !== null &&
  "id" in value &&
  typeof value.id === "string" &&
  "type" in value &&
  typeof value.type === "string" &&
  "data" in value

/**
 * Verifies a delivery over its raw body bytes (before any JSON parsing), in Effect form: the
 * timestamp must be within the tolerance of `Clock`'s now, and one of the `sha256=` signatures
 * must equal the HMAC-SHA256 of `<timestamp>.<raw body>` under one of the secrets (give both
 * while a rolled secret's grace period lasts).
 */
export const verifyWebhookEffect = (
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | ReadonlyArray<string>,
  options: VerifyOptions = {}
): Effect.Effect<VerifiedWebhook, WebhookVerificationError> =>
  Effect.gen(function* () {
    const signatureHeader = header(headers, SIGNATURE_HEADER)
    const timestampHeader = header(headers, TIMESTAMP_HEADER)
    if (signatureHeader === undefined || timestampHeader === undefined) {
      return yield* reject("missing_header", `${SIGNATURE_HEADER} and ${TIMESTAMP_HEADER} are both required`)
    }
    if (!/^\d{1,16}$/.test(timestampHeader)) {
      return yield* reject("bad_timestamp", `${TIMESTAMP_HEADER} must be milliseconds since the epoch`)
    }
    const timestampMs = Number(timestampHeader)
    const now = yield* Clock.currentTimeMillis
    const tolerance = options.toleranceMs ?? DEFAULT_TOLERANCE_MS
    if (Math.abs(now - timestampMs) > tolerance) {
      return yield* reject("outside_tolerance", `signed ${now - timestampMs} ms ago; the tolerance is ${tolerance} ms`)
    }
    const offered = signatureHeader
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part.startsWith("sha256="))
      .map((part) => hexToBytes(part.slice("sha256=".length)))
      .filter((bytes): bytes is Uint8Array => bytes !== undefined)
    const body = typeof rawBody === "string" ? encoder.encode(rawBody) : rawBody
    const message = concat(encoder.encode(`${timestampHeader}.`), body)
    const secrets = typeof secret === "string" ? [secret] : secret
    let matched = false
    for (const candidate of secrets) {
      const expected = yield* hmac(candidate, message)
      // No early exit: every offered signature is compared against every secret.
      for (const signature of offered) matched = equalInConstantTime(expected, signature) || matched
    }
    if (!matched) return yield* reject("bad_signature", "no signature matches the body under the given secret")
    const text = new TextDecoder().decode(body)
    const event = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: () => reject("bad_body", "the signed body is not JSON")
    })
    if (!isEnvelope(event)) return yield* reject("bad_body", "the signed body is not an event envelope")
    const eventId = header(headers, EVENT_ID_HEADER)
    const eventType = header(headers, EVENT_HEADER)
    if ((eventId !== undefined && eventId !== event.id) || (eventType !== undefined && eventType !== event.type)) {
      return yield* reject("bad_body", `${EVENT_ID_HEADER}/${EVENT_HEADER} do not match the signed body`)
    }
    return { event, timestampMs }
  })

/**
 * Verifies a delivery (see `verifyWebhookEffect`); resolves with the event or rejects with a
 * `WebhookVerificationError` whose `reason` says what was wrong.
 */
export const verifyWebhook = (
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | ReadonlyArray<string>,
  options: VerifyOptions = {}
): Promise<VerifiedWebhook> =>
  // Through Either, so the promise rejects with the error itself rather than a wrapping FiberFailure.
  Effect.runPromise(Effect.either(verifyWebhookEffect(rawBody, headers, secret, options))).then((result) =>
    Either.isLeft(result) ? Promise.reject(result.left) : result.right
  )
