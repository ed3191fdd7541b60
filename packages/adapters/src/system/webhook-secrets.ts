import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto"
import * as SqlClient from "@effect/sql/SqlClient"
import { WebhookSecrets } from "@svc/core/webhooks"
import { Effect, Layer, Option, Redacted, SynchronizedRef } from "effect"
import { ServerSecretKey } from "./config.js"

/** The row of `server_secrets` holding the generated sealing key when no `ServerSecretKey` (`SVC_SECRET_KEY`) is set. */
export const WEBHOOK_KEY_NAME = "webhook_secret_key"

const KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
// The format tag leaves room for another cipher or key version later.
const VERSION = "v1"

const decodeKey = (text: string, source: string): Effect.Effect<Buffer> => {
  const key = Buffer.from(text.trim(), "base64")
  return key.length === KEY_BYTES
    ? Effect.succeed(key)
    : Effect.dieMessage(
        `${source} must be the base64 of ${KEY_BYTES} random bytes (e.g. \`openssl rand -base64 32\`); it decodes to ${key.length} bytes`
      )
}

/**
 * The server key: the configured `ServerSecretKey` (`SVC_SECRET_KEY`), or one generated once into `server_secrets`
 * that every instance then reads. It seals webhook secrets; other uses derive a key of their own from it
 * (`makeServerKey`).
 */
const loadKey = (sql: SqlClient.SqlClient, configured: Option.Option<Redacted.Redacted<string>>) =>
  Option.match(configured, {
    onSome: (key) => decodeKey(Redacted.value(key), "SVC_SECRET_KEY"),
    onNone: () =>
      Effect.gen(function* () {
        // Concurrent first starts each offer a key; the first insert wins and everyone reads that one.
        yield* sql`INSERT INTO server_secrets (name, value, created_at)
                   VALUES (${WEBHOOK_KEY_NAME}, ${randomBytes(KEY_BYTES).toString("base64")}, ${new Date()})
                   ON CONFLICT (name) DO NOTHING`
        const rows = yield* sql<{ readonly value: string }>`SELECT value FROM server_secrets
                                                            WHERE name = ${WEBHOOK_KEY_NAME}`
        yield* Effect.logWarning(
          "SVC_SECRET_KEY is not set: webhook signing secrets are sealed with a key stored in the database " +
            "(server_secrets), so a copy of the database reveals them. Set SVC_SECRET_KEY to the base64 of 32 " +
            "random bytes (openssl rand -base64 32) on every instance."
        )
        return yield* decodeKey(rows[0]?.value ?? "", `server_secrets.${WEBHOOK_KEY_NAME}`)
      }).pipe(Effect.orDie)
  })

/**
 * The server key as a use of it needs it (`derive`: the key of that use; by default the server key itself), read
 * on first use rather than when built, so a layer holding it may be built before the migrations that create
 * `server_secrets` run. Only a loaded key is kept: a database hiccup on first use fails that call, not every later one.
 */
export const makeServerKey = (derive: (serverKey: Buffer) => Buffer = (serverKey) => serverKey) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { configured } = yield* ServerSecretKey
    const loaded = yield* SynchronizedRef.make(Option.none<Buffer>())
    return SynchronizedRef.modifyEffect(loaded, (current) =>
      Option.match(current, {
        onSome: (k) => Effect.succeed([k, current] as const),
        onNone: () =>
          Effect.map(loadKey(sql, configured), (serverKey) => {
            const k = derive(serverKey)
            return [k, Option.some(k)] as const
          })
      })
    )
  })

/**
 * `WebhookSecrets` with AES-256-GCM sealing (`v1.<iv>.<tag>.<ciphertext>`, base64url) and HMAC-SHA256.
 * The key is read on first use, not when the layer is built, so the layer may be built before the
 * migrations that create `server_secrets` have run. A sealed secret that does not open under the key
 * is a defect with a message naming the likely cause, never a silent wrong signature.
 */
export const WebhookSecretsLive = Layer.effect(
  WebhookSecrets,
  Effect.gen(function* () {
    const key = yield* makeServerKey()

    return {
      generate: Effect.sync(() => `whsec_${randomBytes(32).toString("base64url")}`),
      seal: (secret) =>
        Effect.map(key, (k) => {
          const iv = randomBytes(IV_BYTES)
          const cipher = createCipheriv("aes-256-gcm", k, iv)
          const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()])
          return [VERSION, iv, cipher.getAuthTag(), sealed]
            .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
            .join(".")
        }),
      open: (sealed) =>
        Effect.flatMap(key, (k) =>
          Effect.try(() => {
            const [version, iv, tag, data] = sealed.split(".")
            if (version !== VERSION || iv === undefined || tag === undefined || data === undefined) {
              throw new Error("not a sealed secret of a known format")
            }
            const decipher = createDecipheriv("aes-256-gcm", k, Buffer.from(iv, "base64url"), {
              authTagLength: TAG_BYTES
            })
            decipher.setAuthTag(Buffer.from(tag, "base64url"))
            return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8")
          }).pipe(
            Effect.orElse(() =>
              Effect.dieMessage(
                "a webhook secret could not be opened: the server key (SVC_SECRET_KEY, or the generated key in " +
                  "server_secrets) is not the key it was sealed with, or the stored value is damaged"
              )
            )
          )
        ),
      hmacSha256Hex: (secret, message) =>
        Effect.sync(() => createHmac("sha256", Buffer.from(secret, "utf8")).update(message, "utf8").digest("hex"))
    }
  })
)
