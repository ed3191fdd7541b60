import { Clock, Effect, Option, Schema } from "effect"
import { makeEventRecorder } from "../events/service.js"
import { Conflict, invalid, NotFound } from "../shared/errors.js"
import { Ids, Secrets, Transactor } from "../shared/ports.js"
import { AccountsRepo, WorkspacesRepo } from "./ports.js"
import { type Account, Email, type Plan } from "./schema.js"
import { Store, Workspace } from "./workspace.js"
import { withSpan } from "../shared/spans.js"

/** What it takes to open an account. */
export interface NewAccount {
  readonly email: string
  readonly password: string
  readonly name?: string | undefined
  readonly plan?: Plan | undefined
}

const decodeEmail = Schema.decodeUnknown(Email)

const handleBase = (email: string): string => {
  const slug = (email.split("@")[0] ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 30)
  return slug.length >= 3 ? slug : `store-${slug}`.replace(/-+$/, "")
}

/** Opening accounts (each with a default workspace and its store), plans and sign-in checks. */
export class Accounts extends Effect.Service<Accounts>()("svc/accounts/Accounts", {
  effect: Effect.gen(function* () {
    const accounts = yield* AccountsRepo
    const workspaces = yield* WorkspacesRepo
    const ids = yield* Ids
    const secrets = yield* Secrets
    const tx = yield* Transactor
    const recordEvent = yield* makeEventRecorder

    const pickHandle = (email: string) =>
      Effect.gen(function* () {
        const base = handleBase(email)
        if (Option.isNone(yield* workspaces.findStoreByHandle(base))) return base
        const bytes = yield* secrets.randomBytes(3)
        return `${base.slice(0, 32)}-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`
      })

    /** Opens an account with a default workspace and a store; fails `Conflict` when the email is taken. */
    const create = (input: NewAccount) =>
      Effect.gen(function* () {
        const email = yield* decodeEmail(input.email).pipe(
          Effect.mapError(() => invalid("email", "email must be an email address like name@example.com"))
        )
        if (input.password.length < 8 || input.password.length > 200) {
          return yield* invalid("password", "password must be 8 to 200 characters")
        }
        const name = input.name?.trim() || (email.split("@")[0] ?? email)
        const now = new Date(yield* Clock.currentTimeMillis)
        const account: Account = {
          id: yield* ids.make("acct_"),
          email,
          name,
          plan: input.plan ?? "free",
          createdAt: now
        }
        const passwordHash = yield* secrets.hashPassword(input.password)
        const workspace = new Workspace({
          id: yield* ids.make("ws_"),
          name: `${name}'s workspace`,
          ownerId: account.id,
          isDefault: true,
          createdAt: now
        })
        const handle = yield* pickHandle(email)
        const store = new Store({
          id: yield* ids.make("store_"),
          workspaceId: workspace.id,
          handle,
          name: `${name}'s store`
        })
        yield* tx.withTransaction(
          Effect.gen(function* () {
            if (!(yield* accounts.insert({ ...account, passwordHash }))) {
              return yield* new Conflict({ message: `an account with the email ${email} already exists` })
            }
            yield* workspaces.insert(workspace)
            if (!(yield* workspaces.insertStore(store))) {
              return yield* new Conflict({ message: `the store handle ${handle} was just taken; try again` })
            }
            yield* recordEvent(workspace.id, "workspace.created", { workspace_id: workspace.id, name: workspace.name })
          })
        )
        return { account, workspace, store }
      }).pipe(withSpan("Accounts.create"))

    /** Finds an account by email; fails `NotFound` when there is none. */
    const findByEmail = (email: string) =>
      accounts.findByEmail(email.trim().toLowerCase()).pipe(
        Effect.flatMap(
          Option.match({
            onNone: () => Effect.fail(new NotFound({ message: `no account with the email ${email}` })),
            onSome: ({ passwordHash: _, ...account }) => Effect.succeed(account as Account)
          })
        )
      )

    /** Changes an account's plan. */
    const setPlan = (email: string, plan: Plan) =>
      Effect.gen(function* () {
        const account = yield* findByEmail(email)
        yield* accounts.setPlan(account.id, plan)
        return { ...account, plan }
      }).pipe(withSpan("Accounts.setPlan"))

    /** The account whose email and password match, if any. */
    const verifyPassword = (email: string, password: string) =>
      Effect.gen(function* () {
        const found = yield* accounts.findByEmail(email.trim().toLowerCase())
        if (Option.isNone(found)) return Option.none<Account>()
        const { passwordHash, ...account } = found.value
        return (yield* secrets.verifyPassword(password, passwordHash)) ? Option.some<Account>(account) : Option.none()
      })

    return { create, findByEmail, setPlan, verifyPassword, count: accounts.count } as const
  })
}) {}
