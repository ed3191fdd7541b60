import { Context, type Effect, type Option } from "effect"
import type { Account, AccountWithSecret, Plan } from "./schema.js"

/** Stored accounts. */
export class AccountsRepo extends Context.Tag("svc/accounts/AccountsRepo")<
  AccountsRepo,
  {
    /** Inserts an account; `false` when the email is taken. */
    readonly insert: (account: AccountWithSecret) => Effect.Effect<boolean>
    readonly findById: (id: string) => Effect.Effect<Option.Option<Account>>
    readonly findByEmail: (email: string) => Effect.Effect<Option.Option<AccountWithSecret>>
    /** Sets the plan; `false` when there is no such account. */
    readonly setPlan: (id: string, plan: Plan) => Effect.Effect<boolean>
    readonly count: Effect.Effect<number>
  }
>() {}
