import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../shared/paging.js"
import type { CreditBalanceRow, CreditEntry, CreditEntryKind, PendingCreditGrant } from "./schema.js"

/** Stored balances, ledger entries and pending grants. Writes that must not race run inside one transaction. */
export class CreditsRepo extends Context.Tag("svc/credits/CreditsRepo")<
  CreditsRepo,
  {
    /** The account's balance row, made empty for `period` if missing, locked until the transaction ends. */
    readonly lockBalance: (accountId: string, period: string, at: Date) => Effect.Effect<CreditBalanceRow>
    /** The account's balance row without a lock, if it has one. */
    readonly findBalance: (accountId: string) => Effect.Effect<Option.Option<CreditBalanceRow>>
    readonly saveBalance: (row: CreditBalanceRow, at: Date) => Effect.Effect<void>
    readonly findEntry: (
      accountId: string,
      kind: CreditEntryKind,
      key: string
    ) => Effect.Effect<Option.Option<CreditEntry>>
    /** Inserts an entry; `false` when the account already has one of that kind and key. */
    readonly insertEntry: (entry: CreditEntry) => Effect.Effect<boolean>
    /** Deletes an entry and answers it, if there was one. */
    readonly removeEntry: (
      accountId: string,
      kind: CreditEntryKind,
      key: string
    ) => Effect.Effect<Option.Option<CreditEntry>>
    /** The account's entries, newest first. */
    readonly listEntries: (accountId: string, page: PageRequest) => Effect.Effect<Page<CreditEntry>>
    /** Keeps a grant for an email with no account; `false` when a grant with that key is already kept. */
    readonly addPending: (grant: PendingCreditGrant) => Effect.Effect<boolean>
    /** Whether grants are kept for an email: a plain read, so reading a balance writes only when it must. */
    readonly hasPending: (email: string) => Effect.Effect<boolean>
    /** Removes and answers the grants kept for an email. */
    readonly takePending: (email: string) => Effect.Effect<ReadonlyArray<PendingCreditGrant>>
  }
>() {}
