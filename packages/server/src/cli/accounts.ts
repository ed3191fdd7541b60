import { Accounts, Plan } from "@svc/core/accounts"
import { Effect, Schema } from "effect"
import { type Output, report, UsageError } from "./output.js"

const decodePlan = (plan: string | undefined) =>
  plan === undefined
    ? Effect.succeed(undefined)
    : Schema.decodeUnknown(Plan)(plan).pipe(
        Effect.mapError(() => new UsageError({ message: `--plan must be one of ${Plan.literals.join(", ")}` }))
      )

/** `svc accounts create --email --password [--name] [--plan]` */
export const createAccount = (
  input: {
    readonly email?: string | undefined
    readonly password?: string | undefined
    readonly name?: string | undefined
    readonly plan?: string | undefined
  },
  output: Output
) =>
  Effect.gen(function* () {
    if (!input.email || !input.password)
      return yield* new UsageError({ message: "accounts create needs --email and --password" })
    const plan = yield* decodePlan(input.plan)
    const accounts = yield* Accounts
    const { account, workspace, store } = yield* accounts.create({
      email: input.email,
      password: input.password,
      name: input.name,
      plan
    })
    yield* report(
      output,
      {
        account,
        workspace: { id: workspace.id, name: workspace.name },
        store: { handle: store.handle, name: store.name }
      },
      [
        `Created account ${account.email} (${account.id}) on the ${account.plan} plan.`,
        `Default workspace: ${workspace.name} (${workspace.id}); store handle: ${store.handle}.`,
        `Next: svc keys create --email ${account.email}`
      ]
    )
  })

/** `svc plans set --email --plan` */
export const setPlan = (
  input: { readonly email?: string | undefined; readonly plan?: string | undefined },
  output: Output
) =>
  Effect.gen(function* () {
    if (!input.email || !input.plan) return yield* new UsageError({ message: "plans set needs --email and --plan" })
    const plan = yield* decodePlan(input.plan)
    const account = yield* (yield* Accounts).setPlan(input.email, plan ?? "free")
    yield* report(output, { account }, [`${account.email} is now on the ${account.plan} plan.`])
  })

/** Finds the account a key command names. */
export const accountByEmail = (email: string | undefined) =>
  Effect.gen(function* () {
    if (!email) return yield* new UsageError({ message: "this command needs --email <owner email>" })
    return yield* (yield* Accounts).findByEmail(email)
  })
