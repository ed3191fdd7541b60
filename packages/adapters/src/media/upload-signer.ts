import { createHmac, timingSafeEqual } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import { makeServerKey } from "../system/webhook-secrets.js"

/** What an upload URL this server receives at grants: one upload (and part, 0 for the whole file), until `expires`. */
export interface UploadGrant {
  readonly uploadId: string
  readonly partNumber: number
  /** Unix seconds. */
  readonly expires: number
}

/**
 * Signs and checks the upload URLs the filesystem store hands out (`?expires=…&signature=…`), with an HMAC-SHA256
 * key derived from the server key, so a URL cannot be made for another upload, part or expiry.
 */
export class MediaUploadSigner extends Context.Tag("svc/media/MediaUploadSigner")<
  MediaUploadSigner,
  {
    readonly sign: (grant: UploadGrant) => Effect.Effect<string>
    /** Whether `signature` was made by `sign` for `grant` (constant-time). */
    readonly verify: (grant: UploadGrant, signature: string) => Effect.Effect<boolean>
  }
>() {}

const message = (grant: UploadGrant) => `${grant.uploadId}\n${grant.partNumber}\n${grant.expires}`

/** The signer over the server key (read on first use, like the webhook secrets' key). */
export const MediaUploadSignerLive = Layer.effect(
  MediaUploadSigner,
  Effect.gen(function* () {
    const key = yield* makeServerKey((serverKey) =>
      createHmac("sha256", serverKey).update("svc media upload urls v1").digest()
    )
    const mac = (grant: UploadGrant) => Effect.map(key, (k) => createHmac("sha256", k).update(message(grant)).digest())
    return {
      sign: (grant) => Effect.map(mac(grant), (digest) => digest.toString("base64url")),
      verify: (grant, signature) =>
        Effect.map(mac(grant), (digest) => {
          const given = Buffer.from(signature, "base64url")
          return given.length === digest.length && timingSafeEqual(given, digest)
        })
    }
  })
)
