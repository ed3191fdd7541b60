import { Accounts, type Plan } from "@svc/core/accounts"
import { Effect } from "effect"
import { type Output, report } from "./output.js"

/** `svc accounts create --email --password [--name] [--plan]` */
export const createAccount = (
  input: {
    readonly email: string
    readonly password: string
    readonly name: string | undefined
    readonly plan: Plan | undefined
  },
  output: Output
) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const { account, workspace, store } = yield* accounts.create(input)
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
export const setPlan = (input: { readonly email: string; readonly plan: Plan }, output: Output) =>
  Effect.gen(function* () {
    const account = yield* (yield* Accounts).setPlan(input.email, input.plan)
    yield* report(output, { account }, [`${account.email} is now on the ${account.plan} plan.`])
  })

/** Finds the account a command names with `--email`. */
export const accountByEmail = (email: string) => Effect.flatMap(Accounts, (accounts) => accounts.findByEmail(email))
