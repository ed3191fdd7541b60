/** Accounts and their workspaces: the `Accounts` service, its repositories and schemas. */
export { AccountsRepo, WorkspacesRepo } from "./ports.js"
export { type Account, type AccountWithSecret, Email, Plan, planAtLeast } from "./schema.js"
export { Accounts, type NewAccount } from "./service.js"
export { Store, StoreHandle, Workspace } from "./workspace.js"
