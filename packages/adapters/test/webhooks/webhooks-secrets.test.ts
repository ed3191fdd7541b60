import { randomBytes } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { WebhookSecrets } from "@svc/core/webhooks"
import { Cause, Effect, Exit, Layer, Option, Redacted } from "effect"
import { migrations } from "../../src/sql/migrations/index.js"
import { ServerSecretKey } from "../../src/system/config.js"
import { WEBHOOK_KEY_NAME, WebhookSecretsLive } from "../../src/system/webhook-secrets.js"
import { engineName, testDatabaseLayer } from "../support/database.js"

/** A `WebhookSecrets` of its own (its own key cache) on the test database, with the server key (`SVC_SECRET_KEY`) as given. */
const secretsWith = (key: string | undefined) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const configured = Option.map(Option.fromNullable(key), Redacted.make)
    const context = yield* Layer.build(
      WebhookSecretsLive.pipe(
        Layer.provide(Layer.succeed(SqlClient.SqlClient, sql)),
        Layer.provide(Layer.succeed(ServerSecretKey, { configured }))
      )
    )
    return yield* Effect.provide(WebhookSecrets, context)
  })

const defectMessage = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) ? Cause.pretty(exit.cause) : "(it succeeded)"

layer(testDatabaseLayer(migrations), { timeout: "60 seconds", excludeTestServices: true })(
  `webhook secrets (${engineName})`,
  (it) => {
    it.scoped("generates whsec_ secrets of 32 random bytes and HMACs like RFC 4231", () =>
      Effect.gen(function* () {
        const secrets = yield* secretsWith(randomBytes(32).toString("base64"))
        const a = yield* secrets.generate
        const b = yield* secrets.generate
        expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
        expect(Buffer.from(a.slice(6), "base64url")).toHaveLength(32)
        expect(a).not.toBe(b)
        // RFC 4231 test case 2.
        expect(yield* secrets.hmacSha256Hex("Jefe", "what do ya want for nothing?")).toBe(
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        )
      })
    )

    it.scoped("seals with AES-256-GCM: opaque, a fresh IV each time, opens to the secret", () =>
      Effect.gen(function* () {
        const secrets = yield* secretsWith(randomBytes(32).toString("base64"))
        const secret = yield* secrets.generate
        const one = yield* secrets.seal(secret)
        const two = yield* secrets.seal(secret)
        expect(one).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/)
        expect(one).not.toContain(secret.slice(6))
        expect(one).not.toBe(two)
        expect(yield* secrets.open(one)).toBe(secret)
        expect(yield* secrets.open(two)).toBe(secret)
      })
    )

    it.scoped("without SVC_SECRET_KEY, instances on one database generate one key and agree on it", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`DELETE FROM server_secrets WHERE name = ${WEBHOOK_KEY_NAME}`
        const [first, second] = yield* Effect.all([secretsWith(undefined), secretsWith(undefined)])
        // Both load their key at once, as two servers starting together would.
        const [sealedByFirst, sealedBySecond] = yield* Effect.all(
          [first.seal("whsec_from_first"), second.seal("whsec_from_second")],
          { concurrency: 2 }
        )
        expect(yield* second.open(sealedByFirst)).toBe("whsec_from_first")
        expect(yield* first.open(sealedBySecond)).toBe("whsec_from_second")
        const rows = yield* sql<{ readonly value: string }>`SELECT value FROM server_secrets
                                                           WHERE name = ${WEBHOOK_KEY_NAME}`
        expect(rows).toHaveLength(1)
        expect(Buffer.from(rows[0]?.value ?? "", "base64")).toHaveLength(32)
        // A later instance (a restart) reads the same key.
        const later = yield* secretsWith(undefined)
        expect(yield* later.open(sealedByFirst)).toBe("whsec_from_first")
      })
    )

    it.scoped("with SVC_SECRET_KEY, the key opens what it sealed anywhere and nothing is stored", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`DELETE FROM server_secrets WHERE name = ${WEBHOOK_KEY_NAME}`
        const key = randomBytes(32).toString("base64")
        const sealed = yield* (yield* secretsWith(key)).seal("whsec_configured")
        expect(yield* (yield* secretsWith(key)).open(sealed)).toBe("whsec_configured")
        const stored = yield* sql`SELECT name FROM server_secrets WHERE name = ${WEBHOOK_KEY_NAME}`
        expect(stored).toHaveLength(0)
      })
    )

    it.scoped("fails loudly when the key is wrong, the sealed value is damaged, or the key is malformed", () =>
      Effect.gen(function* () {
        const sealed = yield* (yield* secretsWith(randomBytes(32).toString("base64"))).seal("whsec_original")
        const wrong = yield* secretsWith(randomBytes(32).toString("base64"))
        const opened = yield* Effect.exit(wrong.open(sealed))
        expect(Exit.isFailure(opened) && Cause.isDie(opened.cause)).toBe(true)
        expect(defectMessage(opened)).toContain("is not the key it was sealed with")

        const right = yield* secretsWith(randomBytes(32).toString("base64"))
        const good = yield* right.seal("whsec_x")
        const parts = good.split(".")
        const flipped = `${parts[0]}.${parts[1]}.${parts[2]}.${(parts[3] ?? "").startsWith("A") ? "B" : "A"}${(parts[3] ?? "").slice(1)}`
        const damaged = yield* Effect.exit(right.open(flipped))
        expect(Exit.isFailure(damaged) && Cause.isDie(damaged.cause)).toBe(true)
        expect(defectMessage(yield* Effect.exit(right.open("plain text")))).toContain("could not be opened")

        const short = yield* secretsWith(randomBytes(16).toString("base64"))
        const refused = yield* Effect.exit(short.seal("whsec_y"))
        expect(Exit.isFailure(refused) && Cause.isDie(refused.cause)).toBe(true)
        expect(defectMessage(refused)).toContain("SVC_SECRET_KEY must be the base64 of 32 random bytes")
      })
    )
  }
)
