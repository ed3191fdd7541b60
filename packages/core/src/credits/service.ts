import { Clock, Effect, Option } from "effect"
import { AccountsRepo } from "../accounts/ports.js"
import type { Account } from "../accounts/schema.js"
import { Forbidden } from "../shared/errors.js"
import type { PageRequest } from "../shared/paging.js"
import { Ids, Transactor } from "../shared/ports.js"
import { withSpan } from "../shared/spans.js"
import { creditsText, MONTHLY_CREDITS, periodOf, refillsOn } from "./costs.js"
import { CreditsRepo } from "./ports.js"
import type { CreditBalance, CreditBalanceRow, CreditCharge, PendingCreditGrant } from "./schema.js"

const checkAmount = (tenths: number, what: string) =>
  Number.isSafeInteger(tenths) && tenths >= 0
    ? Effect.void
    : Effect.dieMessage(`${what} must be a whole, non-negative number of tenths, not ${tenths}`)

/**
 * Each account's AI credits: a monthly plan allowance (UTC months, no roll-over) spent first, then extra credits
 * that never expire. Every charged call is one ledger entry keyed by its call id; a charge, release or grant locks
 * the account's balance row for its transaction, so parallel calls can never spend below zero.
 */
export class Credits extends Effect.Service<Credits>()("svc/credits/Credits", {
  effect: Effect.gen(function* () {
    const repo = yield* CreditsRepo
    const accounts = yield* AccountsRepo
    const ids = yield* Ids
    const transactor = yield* Transactor

    const accountOf = (accountId: string) =>
      Effect.flatMap(accounts.findById(accountId), (found) =>
        Option.isSome(found) ? Effect.succeed(found.value) : Effect.dieMessage(`no account ${accountId}`)
      )

    // The allowance used belongs to the month it was used in; a row from an earlier month has used none of this one.
    const view = (account: Account, row: Option.Option<CreditBalanceRow>, period: string): CreditBalance => {
      const monthly = MONTHLY_CREDITS[account.plan]
      const used = Option.isSome(row) && row.value.period === period ? row.value.allowanceUsedTenths : 0
      const extra = Option.isSome(row) ? row.value.extraTenths : 0
      const allowance = Math.max(0, monthly - used)
      return {
        balanceTenths: allowance + extra,
        allowanceTenths: allowance,
        monthlyAllowanceTenths: monthly,
        extraTenths: extra,
        period
      }
    }

    const usedIn = (row: CreditBalanceRow, period: string) => (row.period === period ? row.allowanceUsedTenths : 0)

    /** Adds a grant to a locked row: one ledger entry per key, so a repeat adds nothing. */
    const addGrant = (
      row: CreditBalanceRow,
      grant: { readonly key: string; readonly tenths: number; readonly reason: string },
      period: string,
      now: Date
    ) =>
      Effect.gen(function* () {
        const inserted = yield* repo.insertEntry({
          id: yield* ids.make("cre_"),
          accountId: row.accountId,
          kind: "grant",
          key: grant.key,
          tenths: grant.tenths,
          allowanceTenths: 0,
          extraTenths: grant.tenths,
          period,
          reason: grant.reason,
          createdAt: now
        })
        return { inserted, row: inserted ? { ...row, extraTenths: row.extraTenths + grant.tenths } : row }
      })

    /** Applies the grants kept for the account's email to its locked row. */
    const applyPending = (
      row: CreditBalanceRow,
      pending: ReadonlyArray<PendingCreditGrant>,
      period: string,
      now: Date
    ) =>
      Effect.reduce(pending, row, (current, grant) =>
        Effect.map(addGrant(current, grant, period, now), (added) => added.row)
      )

    /**
     * The locked balance row of the account, with the grants kept for its email applied: every write starts here,
     * inside its transaction.
     */
    const settle = (account: Account, period: string, now: Date) =>
      Effect.gen(function* () {
        const locked = yield* repo.lockBalance(account.id, period, now)
        const pending = yield* repo.takePending(account.email)
        if (pending.length === 0) return locked
        const row = yield* applyPending(locked, pending, period, now)
        yield* repo.saveBalance(row, now)
        return row
      })

    const clockNow = Effect.map(Clock.currentTimeMillis, (millis) => ({
      now: new Date(millis),
      period: periodOf(millis)
    }))

    /**
     * What the account can spend now. A plain read unless credits are kept for its email: then they are applied
     * first, in a transaction (another read may have taken them meanwhile; then this one reads what they made).
     */
    const balance = (accountId: string) =>
      Effect.gen(function* () {
        const account = yield* accountOf(accountId)
        const { now, period } = yield* clockNow
        if (!(yield* repo.hasPending(account.email))) return view(account, yield* repo.findBalance(account.id), period)
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const row = yield* settle(account, period, now)
            return view(account, Option.some(row), period)
          })
        )
      }).pipe(withSpan("Credits.balance"))

    /**
     * Charges one call: the allowance first, then extra credits. A repeat with the same `callId` changes nothing
     * and answers the first charge; 0 tenths writes nothing; a balance that cannot pay fails `Forbidden`.
     */
    const charge = (input: {
      readonly accountId: string
      readonly callId: string
      readonly tenths: number
      readonly reason: string
    }): Effect.Effect<CreditCharge, Forbidden> =>
      Effect.gen(function* () {
        yield* checkAmount(input.tenths, "a charge")
        if (input.tenths === 0) {
          return { chargedTenths: 0, balanceTenths: (yield* balance(input.accountId)).balanceTenths }
        }
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const account = yield* accountOf(input.accountId)
            const { now, period } = yield* clockNow
            const row = yield* settle(account, period, now)
            const before = view(account, Option.some(row), period)
            const first = yield* repo.findEntry(account.id, "charge", input.callId)
            if (Option.isSome(first)) return { chargedTenths: first.value.tenths, balanceTenths: before.balanceTenths }
            if (before.balanceTenths < input.tenths) {
              return yield* new Forbidden({
                message: `this call costs ${creditsText(input.tenths)} and the balance is ${creditsText(
                  before.balanceTenths
                )}; credits refill on ${refillsOn(period)} (plan allowance), or buy a product that includes AI credits`
              })
            }
            const fromAllowance = Math.min(before.allowanceTenths, input.tenths)
            const fromExtra = input.tenths - fromAllowance
            yield* repo.insertEntry({
              id: yield* ids.make("cre_"),
              accountId: account.id,
              kind: "charge",
              key: input.callId,
              tenths: input.tenths,
              allowanceTenths: fromAllowance,
              extraTenths: fromExtra,
              period,
              reason: input.reason,
              createdAt: now
            })
            yield* repo.saveBalance(
              {
                accountId: account.id,
                period,
                allowanceUsedTenths: usedIn(row, period) + fromAllowance,
                extraTenths: row.extraTenths - fromExtra
              },
              now
            )
            return { chargedTenths: input.tenths, balanceTenths: before.balanceTenths - input.tenths }
          })
        )
      }).pipe(withSpan("Credits.charge"))

    /**
     * Undoes the charge of a call that failed: its entry goes, and its tenths go back where they came from (the
     * allowance part only while its month lasts, since unused allowance does not roll over). No entry: nothing.
     */
    const release = (accountId: string, callId: string) =>
      transactor
        .withTransaction(
          Effect.gen(function* () {
            // Entries are written only after the account's balance row exists: without one there is nothing to undo.
            if (Option.isNone(yield* repo.findBalance(accountId))) return
            const { now, period } = yield* clockNow
            const row = yield* repo.lockBalance(accountId, period, now)
            const removed = yield* repo.removeEntry(accountId, "charge", callId)
            if (Option.isNone(removed)) return
            const entry = removed.value
            const used = usedIn(row, period)
            yield* repo.saveBalance(
              {
                accountId,
                period,
                allowanceUsedTenths: entry.period === period ? Math.max(0, used - entry.allowanceTenths) : used,
                extraTenths: row.extraTenths + entry.extraTenths
              },
              now
            )
          })
        )
        .pipe(withSpan("Credits.release"))

    /** Adds extra credits to an account, once per `key`: a repeat answers `granted: false`. */
    const grant = (input: {
      readonly accountId: string
      readonly key: string
      readonly tenths: number
      readonly reason: string
    }) =>
      Effect.gen(function* () {
        yield* checkAmount(input.tenths, "a grant")
        if (input.tenths === 0) return { granted: false }
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const account = yield* accountOf(input.accountId)
            const { now, period } = yield* clockNow
            const row = yield* settle(account, period, now)
            const added = yield* addGrant(row, input, period, now)
            if (added.inserted) yield* repo.saveBalance(added.row, now)
            return { granted: added.inserted }
          })
        )
      }).pipe(withSpan("Credits.grant"))

    /**
     * Grants credits to whoever has `email`: its account at once, or, with no account yet, kept for the email and
     * applied when that account first reads its balance or is charged. Once per `key`.
     */
    const grantByEmail = (input: {
      readonly email: string
      readonly key: string
      readonly tenths: number
      readonly reason: string
    }) =>
      Effect.gen(function* () {
        yield* checkAmount(input.tenths, "a grant")
        const email = input.email.trim().toLowerCase()
        const found = yield* accounts.findByEmail(email)
        if (Option.isSome(found)) {
          const { granted } = yield* grant({ ...input, accountId: found.value.id })
          return { granted, pending: false }
        }
        if (input.tenths === 0) return { granted: false, pending: false }
        const { now } = yield* clockNow
        const kept = yield* repo.addPending({
          key: input.key,
          email,
          tenths: input.tenths,
          reason: input.reason,
          createdAt: now
        })
        return { granted: kept, pending: true }
      }).pipe(withSpan("Credits.grantByEmail"))

    /** The account's ledger, newest first. */
    const entries = (accountId: string, page: PageRequest) => repo.listEntries(accountId, page)

    return { balance, charge, release, grant, grantByEmail, entries } as const
  })
}) {}
