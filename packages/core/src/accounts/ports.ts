import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../shared/paging.js"
import type { Account, AccountWithSecret, Plan } from "./schema.js"
import type { Store, Workspace } from "./workspace.js"

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

/** Stored workspaces and their stores. */
export class WorkspacesRepo extends Context.Tag("svc/accounts/WorkspacesRepo")<
  WorkspacesRepo,
  {
    readonly insert: (workspace: Workspace) => Effect.Effect<void>
    readonly findById: (id: string) => Effect.Effect<Option.Option<Workspace>>
    /** The account's default workspace, if it still has one. */
    readonly findDefault: (accountId: string) => Effect.Effect<Option.Option<Workspace>>
    /** The account's workspaces, newest first. */
    readonly listByOwner: (accountId: string, page: PageRequest) => Effect.Effect<Page<Workspace>>
    /** Inserts a store; `false` when the handle is taken. */
    readonly insertStore: (store: Store) => Effect.Effect<boolean>
    readonly findStore: (workspaceId: string) => Effect.Effect<Option.Option<Store>>
    /** Changes the display name of the workspace's store; `false` when the workspace has none. */
    readonly renameStore: (workspaceId: string, name: string) => Effect.Effect<boolean>
    readonly findStoreByHandle: (handle: string) => Effect.Effect<Option.Option<Store>>
  }
>() {}
