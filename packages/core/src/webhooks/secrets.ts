import { Context, Effect } from "effect"

/**
 * The cryptography of webhook secrets. Signing secrets must be recoverable (we sign with them), so
 * they are stored sealed with a server key rather than hashed (DESIGN §3.7).
 */
export class WebhookSecrets extends Context.Tag("svc/webhooks/WebhookSecrets")<
  WebhookSecrets,
  {
    /** A new signing secret (`whsec_` + random), shown to the owner once. */
    readonly generate: Effect.Effect<string>
    /** Encrypts a secret for storage; the result is opaque text. */
    readonly seal: (secret: string) => Effect.Effect<string>
    /** Decrypts what `seal` made; a defect when the server key does not match. */
    readonly open: (sealed: string) => Effect.Effect<string>
    /** Lower-case hex HMAC-SHA256 of the UTF-8 `message` keyed with the UTF-8 `secret`. */
    readonly hmacSha256Hex: (secret: string, message: string) => Effect.Effect<string>
  }
>() {}

/** `X-Svc-Signature` for one or more signatures (several while a rolled secret's grace period lasts). */
export const signatureHeaderValue = (hexDigests: ReadonlyArray<string>): string =>
  hexDigests.map((hex) => `sha256=${hex}`).join(", ")

/** The sealed secrets of a webhook, as a webhook row and a claimed delivery both carry them. */
export interface SealedSecrets {
  readonly secretSealed: string
  readonly previousSecretSealed: string | null
  readonly previousSecretUntil: Date | null
}

/** The secrets that sign a delivery at `now`: the current one, and the previous one while its grace period lasts. */
export const signingSecrets = (sealed: SealedSecrets, now: number) =>
  Effect.flatMap(WebhookSecrets, (secrets) =>
    Effect.all([
      secrets.open(sealed.secretSealed),
      ...(sealed.previousSecretSealed !== null &&
      sealed.previousSecretUntil !== null &&
      sealed.previousSecretUntil.getTime() > now
        ? [secrets.open(sealed.previousSecretSealed)]
        : [])
    ])
  )
