import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Accounts } from "@svc/core/accounts"
import { EventLog } from "@svc/core/events"
import { Effect, Option } from "effect"
import { engineName } from "../support/database.js"
import { testCoreLayer } from "../support/core.js"

layer(testCoreLayer(), { timeout: "60 seconds" })(`accounts on ${engineName}`, (it) => {
  describe("opening an account", () => {
    it.effect("gives it a default workspace and a store, and logs the workspace's creation", () =>
      Effect.gen(function* () {
        const accounts = yield* Accounts
        const { account, workspace, store } = yield* accounts.create({
          email: "  Ada@Example.COM ",
          password: "long enough password",
          name: "Ada"
        })
        expect(account.email).toBe("ada@example.com")
        expect(account.plan).toBe("free")
        expect(workspace.isDefault).toBe(true)
        expect(workspace.ownerId).toBe(account.id)
        expect(store.workspaceId).toBe(workspace.id)
        expect(store.handle).toBe("ada")
        const events = yield* (yield* EventLog).list(workspace.id, {}, { limit: 10, after: undefined })
        expect(events.rows.map((e) => e.type)).toEqual(["workspace.created"])
      })
    )

    it.effect("refuses a second account with the same email, in any case", () =>
      Effect.gen(function* () {
        const accounts = yield* Accounts
        yield* accounts.create({ email: "grace@example.com", password: "long enough password" })
        const error = yield* Effect.flip(accounts.create({ email: "GRACE@example.com", password: "another password" }))
        expect(error._tag).toBe("Conflict")
      })
    )

    it.effect("leaves nothing behind when it fails half-way", () =>
      Effect.gen(function* () {
        const accounts = yield* Accounts
        const sql = yield* SqlClient.SqlClient
        const before = yield* accounts.count
        yield* Effect.flip(accounts.create({ email: "grace@example.com", password: "long enough password" }))
        expect(yield* accounts.count).toBe(before)
        const orphans = yield* sql`SELECT id FROM workspaces WHERE owner_id NOT IN (SELECT id FROM accounts)`
        expect(orphans).toHaveLength(0)
      })
    )

    it.effect("picks another store handle when the natural one is taken", () =>
      Effect.gen(function* () {
        const accounts = yield* Accounts
        const first = yield* accounts.create({ email: "sam@one.example", password: "long enough password" })
        const second = yield* accounts.create({ email: "sam@two.example", password: "long enough password" })
        expect(first.store.handle).toBe("sam")
        expect(second.store.handle).toMatch(/^sam-[0-9a-f]{6}$/)
      })
    )

    it.effect("validates the email and password with field errors", () =>
      Effect.gen(function* () {
        const accounts = yield* Accounts
        const badEmail = yield* Effect.flip(
          accounts.create({ email: "not-an-email", password: "long enough password" })
        )
        expect(badEmail._tag === "InvalidInput" && badEmail.errors[0]?.path).toBe("email")
        const shortPassword = yield* Effect.flip(accounts.create({ email: "x@example.com", password: "short" }))
        expect(shortPassword._tag === "InvalidInput" && shortPassword.errors[0]?.path).toBe("password")
      })
    )
  })

  describe("plans and passwords", () => {
    it.effect("changes the plan", () =>
      Effect.gen(function* () {
        const accounts = yield* Accounts
        yield* accounts.create({ email: "plan@example.com", password: "long enough password" })
        const updated = yield* accounts.setPlan("PLAN@example.com", "pro")
        expect(updated.plan).toBe("pro")
        expect((yield* accounts.findByEmail("plan@example.com")).plan).toBe("pro")
        const missing = yield* Effect.flip(accounts.setPlan("nobody@example.com", "pro"))
        expect(missing._tag).toBe("NotFound")
      })
    )

    it.effect("checks passwords against the stored scrypt hash", () =>
      Effect.gen(function* () {
        const accounts = yield* Accounts
        const sql = yield* SqlClient.SqlClient
        yield* accounts.create({ email: "pw@example.com", password: "the right password" })
        expect(Option.isSome(yield* accounts.verifyPassword("pw@example.com", "the right password"))).toBe(true)
        expect(Option.isNone(yield* accounts.verifyPassword("pw@example.com", "the wrong password"))).toBe(true)
        expect(Option.isNone(yield* accounts.verifyPassword("nobody@example.com", "the right password"))).toBe(true)
        const rows = yield* sql<{
          readonly password_hash: string
        }>`SELECT password_hash FROM accounts WHERE email = 'pw@example.com'`
        expect(rows[0]?.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/)
        expect(rows[0]?.password_hash).not.toContain("the right password")
      })
    )
  })
})
