import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Accounts } from "@svc/core/accounts"
import { ApiKeys, Authenticator } from "@svc/core/auth"
import { Effect, TestClock } from "effect"
import { engineName } from "../support/database.js"
import { signUp, testCoreLayer } from "../support/core.js"

layer(testCoreLayer(), { timeout: "60 seconds" })(`API keys on ${engineName}`, (it) => {
  describe("creating a key", () => {
    it.effect("answers the token once and stores only its SHA-256 and a display prefix", () =>
      Effect.gen(function* () {
        const { key, token } = yield* signUp()
        const sql = yield* SqlClient.SqlClient
        expect(token).toMatch(/^svc_pat_[0-9A-Za-z]{36}$/)
        expect(key.prefix).toBe(token.slice(0, 12))
        const rows = yield* sql<Record<string, unknown>>`SELECT * FROM api_keys WHERE id = ${key.id}`
        const stored = JSON.stringify(rows)
        expect(stored).not.toContain(token)
        expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/)
      })
    )

    it.effect("binds the key to the owner's default workspace, or to a named store", () =>
      Effect.gen(function* () {
        const { account, workspace, store, principal } = yield* signUp()
        expect(principal.workspaceId).toBe(workspace.id)
        expect(principal.reach).toBe("bound")
        const keys = yield* ApiKeys
        const named = yield* keys.create(account.id, { storeHandle: store.handle })
        expect(named.key.workspaceId).toBe(workspace.id)
        const other = yield* signUp()
        const foreign = yield* Effect.flip(keys.create(account.id, { storeHandle: other.store.handle }))
        expect(foreign._tag).toBe("NotFound")
      })
    )

    it.effect("validates the expiry and the name", () =>
      Effect.gen(function* () {
        const { account } = yield* signUp()
        const keys = yield* ApiKeys
        const zero = yield* Effect.flip(keys.create(account.id, { expiresInDays: 0 }))
        expect(zero._tag === "InvalidInput" && zero.errors[0]?.path).toBe("expiresInDays")
        const long = yield* Effect.flip(keys.create(account.id, { name: "x".repeat(101) }))
        expect(long._tag === "InvalidInput" && long.errors[0]?.path).toBe("name")
        const nul = yield* Effect.flip(keys.create(account.id, { name: "CI\u0000key" }))
        expect(nul._tag === "InvalidInput" && nul.message).toBe("name must not contain the NUL character (\\u0000)")
        const half = yield* Effect.flip(keys.create(account.id, { name: "CI\udc00key" }))
        expect(half._tag === "InvalidInput" && half.errors[0]?.path).toBe("name")
      })
    )
  })

  describe("authenticating", () => {
    it.effect("turns a token into the owner's principal with the key's access and plan", () =>
      Effect.gen(function* () {
        const { account, key, token } = yield* signUp({ access: { kind: "custom", parts: { boards: "read" } } })
        const principal = yield* (yield* Authenticator).authenticate(token, "tools")
        expect(principal.accountId).toBe(account.id)
        expect(principal.credential).toEqual({ kind: "api_key", id: key.id })
        expect(principal.access).toEqual({ kind: "custom", parts: { boards: "read" } })
        expect(principal.plan).toBe("starter")
      })
    )

    it.effect("refuses missing, malformed, unknown and revoked tokens", () =>
      Effect.gen(function* () {
        const auth = yield* Authenticator
        const { account, key, token } = yield* signUp()
        // The last character changed (to one it is not: a token ending in "x" must not stay itself).
        const altered = `${token.slice(0, -1)}${token.endsWith("x") ? "y" : "x"}`
        for (const bad of [undefined, "", "svc_pat_nope", altered, "Bearer something"]) {
          expect((yield* Effect.flip(auth.authenticate(bad, "tools")))._tag).toBe("AuthExpired")
        }
        yield* (yield* ApiKeys).revoke(key.id, account.id)
        expect((yield* Effect.flip(auth.authenticate(token, "tools")))._tag).toBe("AuthExpired")
      })
    )

    it.effect("refuses a well-formed token that was never issued", () =>
      Effect.gen(function* () {
        const { token } = yield* signUp()
        const keys = yield* ApiKeys
        // Same format and a valid checksum, but not in storage.
        const { account } = yield* signUp()
        const fresh = yield* keys.create(account.id, {})
        yield* keys.revoke(fresh.key.id)
        expect(token).not.toBe(fresh.token)
        expect((yield* Effect.flip(keys.authenticate(fresh.token)))._tag).toBe("AuthExpired")
      })
    )

    it.effect("stops accepting a key once it expires", () =>
      Effect.gen(function* () {
        const { account } = yield* signUp()
        const keys = yield* ApiKeys
        const { token } = yield* keys.create(account.id, { expiresInDays: 1 })
        yield* keys.authenticate(token)
        yield* TestClock.adjust("23 hours")
        yield* keys.authenticate(token)
        yield* TestClock.adjust("1 hour")
        expect((yield* Effect.flip(keys.authenticate(token)))._tag).toBe("AuthExpired")
      })
    )

    it.effect("records when a key was last used, at most once a minute", () =>
      Effect.gen(function* () {
        const { account, key, token } = yield* signUp()
        const keys = yield* ApiKeys
        const lastUsed = () =>
          Effect.map(keys.list(account.id), (all) => all.find((k) => k.id === key.id)?.lastUsedAt?.getTime())
        const first = yield* lastUsed()
        expect(first).toBeDefined()
        yield* TestClock.adjust("30 seconds")
        yield* keys.authenticate(token)
        expect(yield* lastUsed()).toBe(first)
        yield* TestClock.adjust("31 seconds")
        yield* keys.authenticate(token)
        expect(yield* lastUsed()).toBe((first ?? 0) + 61_000)
      })
    )

    it.effect("lists keys newest first and revokes only the owner's keys", () =>
      Effect.gen(function* () {
        const { account } = yield* signUp()
        const keys = yield* ApiKeys
        yield* TestClock.adjust("1 second")
        const second = yield* keys.create(account.id, { name: "second" })
        const listed = yield* keys.list(account.id)
        expect(listed.map((k) => k.name)).toEqual(["second", "API key"])
        const stranger = yield* signUp()
        expect((yield* Effect.flip(keys.revoke(second.key.id, stranger.account.id)))._tag).toBe("NotFound")
        const accounts = yield* Accounts
        expect((yield* accounts.findByEmail(account.email)).id).toBe(account.id)
      })
    )
  })
})
