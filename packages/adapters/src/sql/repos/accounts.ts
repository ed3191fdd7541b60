import { type AccountWithSecret, AccountsRepo, type Plan } from "@svc/core/accounts"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"
import { withSpan } from "@svc/core/shared"

interface AccountRow {
  readonly id: string
  readonly email: string
  readonly name: string
  readonly password_hash: string
  readonly plan: Plan
  readonly created_at: Date
}

const toAccount = (row: AccountRow): AccountWithSecret => ({
  id: row.id,
  email: row.email,
  name: row.name,
  passwordHash: row.password_hash,
  plan: row.plan,
  createdAt: row.created_at
})

/** `AccountsRepo` over SQL. */
export const AccountsRepoSql = Layer.effect(
  AccountsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      insert: (account) =>
        lean`INSERT INTO accounts (id, email, name, password_hash, plan, created_at)
            VALUES (${account.id}, ${account.email}, ${account.name}, ${account.passwordHash}, ${account.plan}, ${account.createdAt})
            ON CONFLICT (email) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          withSpan("AccountsRepo.insert")
        ),
      findById: (id) =>
        lean<AccountRow>`SELECT * FROM accounts WHERE id = ${id}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => {
              const { passwordHash: _, ...account } = toAccount(row)
              return account
            })
          ),
          Effect.orDie
        ),
      findByEmail: (email) =>
        lean<AccountRow>`SELECT * FROM accounts WHERE email = ${email}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toAccount)),
          Effect.orDie
        ),
      setPlan: (id, plan) =>
        lean`UPDATE accounts SET plan = ${plan} WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      count: lean<{ readonly n: number }>`SELECT count(*)::int AS n FROM accounts`.pipe(
        Effect.map((rows) => rows[0]?.n ?? 0),
        Effect.orDie
      )
    }
  })
)
