import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Accounts } from "@svc/core/accounts"
import { CUSTOM_AI_MESSAGE_COST, Credits, CreditsRepo, formatCredits, MONTHLY_CREDITS } from "@svc/core/credits"
import { ToolServer } from "@svc/core/tools"
import { Effect, Either, Exit, TestClock } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

const NOV_15 = Date.UTC(2026, 10, 15, 12)
const DEC_1 = Date.UTC(2026, 11, 1, 0, 0, 1)

/** The account's ledger rows straight from the table, oldest first. */
const ledgerOf = (accountId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ kind: string; key: string; tenths: number }>`SELECT kind, key, tenths FROM credit_entries
               WHERE account_id = ${accountId} ORDER BY created_at, id`
  ).pipe(Effect.orDie)

layer(testCoreLayer(), { timeout: "120 seconds" })(`AI credits on ${engineName}`, (it) => {
  it("formats tenths as credits", () => {
    expect([15, 10, 3, 0, 20_000, 12_345].map(formatCredits)).toEqual(["1.5", "1", "0.3", "0", "2000", "1234.5"])
    expect(CUSTOM_AI_MESSAGE_COST).toEqual({ standard: 10, max: 20 })
  })

  it.effect("spends the monthly allowance first, then extra credits, and refills the allowance each month", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOV_15)
      const credits = yield* Credits
      const { account } = yield* signUp({ plan: "free" })
      expect(yield* credits.balance(account.id)).toEqual({
        balanceTenths: 500,
        allowanceTenths: 500,
        monthlyAllowanceTenths: MONTHLY_CREDITS.free,
        extraTenths: 0,
        period: "2026-11"
      })
      expect(yield* credits.grant({ accountId: account.id, key: "gift-1", tenths: 25, reason: "gift" })).toEqual({
        granted: true
      })
      expect(yield* credits.charge({ accountId: account.id, callId: "c1", tenths: 490, reason: "ask" })).toEqual({
        chargedTenths: 490,
        balanceTenths: 35
      })
      // 10 left of the allowance, then 5 of the 25 extra.
      expect(yield* credits.charge({ accountId: account.id, callId: "c2", tenths: 15, reason: "ask" })).toEqual({
        chargedTenths: 15,
        balanceTenths: 20
      })
      expect(yield* credits.balance(account.id)).toMatchObject({ allowanceTenths: 0, extraTenths: 20 })

      // A new month: the allowance is whole again, the unused part does not roll over, extra credits stay.
      yield* TestClock.setTime(DEC_1)
      expect(yield* credits.balance(account.id)).toEqual({
        balanceTenths: 520,
        allowanceTenths: 500,
        monthlyAllowanceTenths: 500,
        extraTenths: 20,
        period: "2026-12"
      })
      expect(yield* credits.charge({ accountId: account.id, callId: "c3", tenths: 10, reason: "ask" })).toEqual({
        chargedTenths: 10,
        balanceTenths: 510
      })
      expect(yield* credits.balance(account.id)).toMatchObject({ allowanceTenths: 490, extraTenths: 20 })
    })
  )

  it.effect("release gives a failed call's tenths back to the buckets they came from and removes its entry", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOV_15)
      const credits = yield* Credits
      const { account } = yield* signUp({ plan: "free" })
      yield* credits.grant({ accountId: account.id, key: "g", tenths: 30, reason: "gift" })
      yield* credits.charge({ accountId: account.id, callId: "big", tenths: 480, reason: "ask" })
      // 20 from the allowance, 10 from extra.
      yield* credits.charge({ accountId: account.id, callId: "failed", tenths: 30, reason: "ask" })
      expect(yield* credits.balance(account.id)).toMatchObject({ allowanceTenths: 0, extraTenths: 20 })
      yield* credits.release(account.id, "failed")
      expect(yield* credits.balance(account.id)).toMatchObject({
        balanceTenths: 50,
        allowanceTenths: 20,
        extraTenths: 30
      })
      expect((yield* ledgerOf(account.id)).map((e) => e.key).sort()).toEqual(["big", "g"])
      // No entry: nothing happens.
      yield* credits.release(account.id, "failed")
      yield* credits.release(account.id, "never-charged")
      expect((yield* credits.balance(account.id)).balanceTenths).toBe(50)
    })
  )

  it.effect("a repeated call id or grant key changes nothing, and a charge of 0 writes no entry", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOV_15)
      const credits = yield* Credits
      const { account } = yield* signUp({ plan: "free" })
      const first = yield* credits.charge({ accountId: account.id, callId: "same", tenths: 20, reason: "ask" })
      const again = yield* credits.charge({ accountId: account.id, callId: "same", tenths: 20, reason: "ask" })
      expect(first).toEqual({ chargedTenths: 20, balanceTenths: 480 })
      expect(again).toEqual({ chargedTenths: 20, balanceTenths: 480 })
      yield* TestClock.adjust("1 second")
      expect(yield* credits.grant({ accountId: account.id, key: "k", tenths: 10, reason: "gift" })).toEqual({
        granted: true
      })
      expect(yield* credits.grant({ accountId: account.id, key: "k", tenths: 10, reason: "gift" })).toEqual({
        granted: false
      })
      expect(yield* credits.charge({ accountId: account.id, callId: "free", tenths: 0, reason: "save" })).toEqual({
        chargedTenths: 0,
        balanceTenths: 490
      })
      expect(yield* ledgerOf(account.id)).toEqual([
        { kind: "charge", key: "same", tenths: 20 },
        { kind: "grant", key: "k", tenths: 10 }
      ])
      const page = yield* credits.entries(account.id, { limit: 1, after: undefined })
      expect(page.rows.map((e) => e.key)).toEqual(["k"])
      const next = yield* credits.entries(account.id, { limit: 1, after: page.next })
      expect(next.rows.map((e) => [e.key, e.allowanceTenths, e.extraTenths])).toEqual([["same", 20, 0]])
      expect(next.next).toBeUndefined()
    })
  )

  it.effect("a call the balance cannot pay is forbidden, names the cost and the balance, and writes nothing", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOV_15)
      const credits = yield* Credits
      const { account } = yield* signUp({ plan: "free" })
      yield* credits.charge({ accountId: account.id, callId: "most", tenths: 496, reason: "ask" })
      const refused = yield* Effect.either(
        credits.charge({ accountId: account.id, callId: "one-more", tenths: 10, reason: "ask" })
      )
      expect(Either.isLeft(refused)).toBe(true)
      if (Either.isLeft(refused)) {
        expect(refused.left._tag).toBe("Forbidden")
        expect(refused.left.message).toBe(
          "this call costs 1 credit and the balance is 0.4 credits; credits refill on 2026-12-01 (plan allowance), or buy a product that includes AI credits"
        )
      }
      expect((yield* ledgerOf(account.id)).map((e) => e.key)).toEqual(["most"])
      expect((yield* credits.balance(account.id)).balanceTenths).toBe(4)
    })
  )

  it.effect("50 parallel charges of 1 credit on a balance of 10 credits: exactly 10 are paid, none below zero", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOV_15)
      const credits = yield* Credits
      const { account } = yield* signUp({ plan: "free" })
      yield* credits.charge({ accountId: account.id, callId: "setup", tenths: 400, reason: "bring to 10 credits" })
      expect((yield* credits.balance(account.id)).balanceTenths).toBe(100)
      const results = yield* Effect.all(
        Array.from({ length: 50 }, (_, i) =>
          Effect.either(credits.charge({ accountId: account.id, callId: `par-${i}`, tenths: 10, reason: "ask" }))
        ),
        { concurrency: "unbounded" }
      )
      const paid = results.filter(Either.isRight)
      const refused = results.filter(Either.isLeft)
      expect(paid.length).toBe(10)
      expect(refused.every((r) => r.left._tag === "Forbidden")).toBe(true)
      expect(paid.map((r) => r.right.balanceTenths).sort((a, b) => a - b)).toEqual([
        0, 10, 20, 30, 40, 50, 60, 70, 80, 90
      ])
      expect((yield* credits.balance(account.id)).balanceTenths).toBe(0)
      expect((yield* ledgerOf(account.id)).filter((e) => e.key.startsWith("par-")).length).toBe(10)
    })
  )

  it.effect("svc_list_workspaces shows the account's credit balance", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOV_15)
      const credits = yield* Credits
      const { account, principal } = yield* signUp({ plan: "starter" })
      yield* credits.grant({ accountId: account.id, key: "g", tenths: 25, reason: "gift" })
      yield* credits.charge({ accountId: account.id, callId: "c", tenths: 10, reason: "ask" })
      const answer = yield* (yield* ToolServer).call(principal, "svc_list_workspaces", {})
      expect(answer).toMatchObject({
        ok: true,
        credits: { balance: 501.5, monthlyAllowance: 500, refillsOn: "2026-12-01" }
      })
    })
  )

  it.effect("reading a balance writes nothing unless credits are kept for the account's email", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOV_15)
      const credits = yield* Credits
      const sql = yield* SqlClient.SqlClient
      // PostgreSQL refuses any write in a read-only transaction, even one that would change no row.
      const readOnly = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.exit(sql.withTransaction(Effect.zipRight(sql`SET TRANSACTION READ ONLY`, effect)))
      const { account } = yield* signUp({ plan: "free" })
      expect(yield* readOnly(credits.balance(account.id))).toEqual(
        Exit.succeed({
          balanceTenths: 500,
          allowanceTenths: 500,
          monthlyAllowanceTenths: 500,
          extraTenths: 0,
          period: "2026-11"
        })
      )
      yield* credits.charge({ accountId: account.id, callId: "c", tenths: 10, reason: "ask" })
      expect(yield* readOnly(credits.balance(account.id))).toMatchObject(Exit.succeed({ balanceTenths: 490 }))

      // Kept for its email (granted as the account was being made): the next read applies them, which writes.
      yield* TestClock.adjust("1 minute")
      yield* (yield* CreditsRepo).addPending({
        key: `sale:late-${account.id}`,
        email: account.email,
        tenths: 30,
        reason: "sale",
        createdAt: new Date(NOV_15)
      })
      expect(Exit.isFailure(yield* readOnly(credits.balance(account.id)))).toBe(true)
      expect(yield* credits.balance(account.id)).toMatchObject({ balanceTenths: 520, extraTenths: 30 })
      expect(yield* readOnly(credits.balance(account.id))).toMatchObject(Exit.succeed({ balanceTenths: 520 }))
      expect(yield* ledgerOf(account.id)).toEqual([
        { kind: "charge", key: "c", tenths: 10 },
        { kind: "grant", key: `sale:late-${account.id}`, tenths: 30 }
      ])
    })
  )

  it.effect("credits kept for an email with no account are applied when its account first reads its balance", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOV_15)
      const credits = yield* Credits
      const email = `later-${Date.now()}@example.com`
      const grant = { email: ` ${email.toUpperCase()} `, key: `sale:pending-${email}`, tenths: 1000, reason: "sale" }
      expect(yield* credits.grantByEmail(grant)).toEqual({ granted: true, pending: true })
      expect(yield* credits.grantByEmail(grant)).toEqual({ granted: false, pending: true })
      const { account } = yield* (yield* Accounts).create({ email, password: "correct horse battery", plan: "free" })
      expect(yield* credits.balance(account.id)).toMatchObject({ balanceTenths: 1500, extraTenths: 1000 })
      expect(yield* credits.balance(account.id)).toMatchObject({ extraTenths: 1000 })
      // The key is in the ledger now: granting it again to the account adds nothing.
      expect(yield* credits.grantByEmail(grant)).toEqual({ granted: false, pending: false })
      expect(yield* ledgerOf(account.id)).toEqual([{ kind: "grant", key: grant.key, tenths: 1000 }])
    })
  )
})
