/**
 * A checked key is remembered for 5 seconds (so a busy agent's calls cost no key lookup). What that may
 * and may not change: a revocation through this process is immediate, one made elsewhere lands within
 * 5 seconds, and an expiry is honoured to the millisecond even on a remembered key.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Accounts } from "@svc/core/accounts"
import { ApiKeys, ApiKeysRepo, Authenticator } from "@svc/core/auth"
import { Clock, Effect, TestClock } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

layer(testCoreLayer(), { timeout: "60 seconds" })(`remembered API keys on ${engineName}`, (it) => {
  describe("a key checked a moment ago", () => {
    it.effect("is refused at once after a revocation through this process", () =>
      Effect.gen(function* () {
        const { account, key, token } = yield* signUp()
        const auth = yield* Authenticator
        yield* auth.authenticate(token, "tools")
        yield* (yield* ApiKeys).revoke(key.id, account.id)
        expect((yield* Effect.flip(auth.authenticate(token, "tools")))._tag).toBe("AuthExpired")
      })
    )

    it.effect("is refused within 5 seconds of a revocation made by another process", () =>
      Effect.gen(function* () {
        const { key, token } = yield* signUp()
        const auth = yield* Authenticator
        yield* auth.authenticate(token, "tools")
        // Straight in storage, as the CLI or another instance would do it.
        const now = yield* Clock.currentTimeMillis
        expect(yield* (yield* ApiKeysRepo).revoke(key.id, undefined, new Date(now))).toBe(true)
        yield* auth.authenticate(token, "tools")
        yield* TestClock.adjust("5 seconds")
        expect((yield* Effect.flip(auth.authenticate(token, "tools")))._tag).toBe("AuthExpired")
      })
    )

    it.effect("sees a plan change made elsewhere within 5 seconds", () =>
      Effect.gen(function* () {
        const { account, token } = yield* signUp({ plan: "starter" })
        const keys = yield* ApiKeys
        yield* (yield* Accounts).setPlan(account.email, "pro")
        yield* TestClock.adjust("5 seconds")
        expect((yield* keys.authenticate(token)).plan).toBe("pro")
      })
    )

    it.effect("is refused the moment it expires, remembered or not", () =>
      Effect.gen(function* () {
        const { account } = yield* signUp()
        const keys = yield* ApiKeys
        const { token } = yield* keys.create(account.id, { expiresInDays: 1 })
        yield* TestClock.adjust("86398 seconds")
        yield* keys.authenticate(token)
        yield* TestClock.adjust("2 seconds")
        expect((yield* Effect.flip(keys.authenticate(token)))._tag).toBe("AuthExpired")
      })
    )
  })
})
