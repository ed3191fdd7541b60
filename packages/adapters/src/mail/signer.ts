import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto"
import { MailSigner } from "@svc/core/mail"
import { Effect, Layer } from "effect"
import { makeServerKey } from "../system/webhook-secrets.js"

// The HKDF label names the use, so this key is unrelated to the server key and to any other key derived from it.
const KEY_INFO = "svc mail link signing v1"

/**
 * `MailSigner` with HMAC-SHA256 (base64url) under a key derived by HKDF-SHA256 from the server key (`SVC_SECRET_KEY`,
 * or the key stored in `server_secrets`), never the server key itself. The key is read on first use, as
 * `WebhookSecretsLive` reads its own, so the layer may be built before the migrations run.
 */
export const MailSignerLive = Layer.effect(
  MailSigner,
  Effect.gen(function* () {
    const key = yield* makeServerKey((serverKey) =>
      Buffer.from(hkdfSync("sha256", serverKey, Buffer.alloc(0), KEY_INFO, 32))
    )
    const mac = (k: Buffer, text: string) => createHmac("sha256", k).update(text, "utf8").digest("base64url")

    return {
      sign: (text) => Effect.map(key, (k) => mac(k, text)),
      // Compared as text, not decoded: base64url decoding ignores stray characters and the last one's spare bits, so
      // an altered signature could decode to the right bytes.
      verify: (text, signature) =>
        Effect.map(key, (k) => {
          const expected = Buffer.from(mac(k, text), "utf8")
          const given = Buffer.from(signature, "utf8")
          return given.length === expected.length && timingSafeEqual(given, expected)
        })
    }
  })
)
