/**
 * `svc.admin`: what the `svc` command line does for an operator, as functions of the embedded svc. Each calls the
 * services the command calls (and the command's own lookups, `accountByEmail` and `storeOf`), so an embedding app
 * can do everything the command line does without one.
 */
import { Accounts, type Plan, WorkspacesRepo } from "@svc/core/accounts"
import { type Access, ApiKeys } from "@svc/core/auth"
import { CustomAis } from "@svc/core/custom-ai"
import { NotFound } from "@svc/core/shared"
import { cohortJson, StoreCohorts, StoreSetup, type StoreSettingsChanges, StoreTagging } from "@svc/core/store"
import { Effect, Option } from "effect"
import { accountByEmail } from "./cli/accounts.js"
import { keyView } from "./cli/keys.js"
import { storeOf } from "./cli/store.js"

/** An API key as `svc keys list --json` shows it (never its token). */
export type ApiKeyView = ReturnType<typeof keyView>

/** A cohort as `svc cohorts create --json` shows it (and the store API answers it). */
export type CohortView = ReturnType<typeof cohortJson>

/** The operator's commands of `svc`, as functions. A refusal rejects with the domain's error and its message. */
export interface SvcAdmin {
  /** `svc accounts create`: an account with its workspace and store. */
  readonly createAccount: (input: {
    readonly email: string
    readonly password: string
    readonly name?: string
    readonly plan?: Plan
  }) => Promise<{ readonly accountId: string; readonly workspaceId: string; readonly storeHandle: string }>
  /** `svc plans set`: moves the account to another plan. */
  readonly setPlan: (input: { readonly email: string; readonly plan: Plan }) => Promise<void>
  /** `svc keys create`: an API key of the account (the token is in this answer only). */
  readonly createApiKey: (input: {
    readonly email: string
    readonly name?: string
    readonly access?: Access
    readonly storeHandle?: string
    readonly expiresInDays?: number
  }) => Promise<{ readonly keyId: string; readonly token: string }>
  /** `svc keys list`: the account's API keys, revoked ones too, never their tokens. */
  readonly listApiKeys: (input: { readonly email: string }) => Promise<ReadonlyArray<ApiKeyView>>
  /** `svc keys revoke`: the key stops working (running servers stop accepting it within 5 seconds). */
  readonly revokeApiKey: (keyId: string) => Promise<void>
  /** `svc store set`: the store settings of the account's default workspace. */
  readonly setStore: (input: { readonly email: string } & StoreSettingsChanges) => Promise<void>
  /** `svc custom-ais create`: a Custom AI in the account's store (its default one, or `storeHandle`). */
  readonly createCustomAi: (input: {
    readonly email: string
    readonly name: string
    readonly storeHandle?: string
  }) => Promise<{ readonly customAiId: string }>
  /** `svc cohorts create`: a cohort of one of the store's products. */
  readonly createCohort: (input: {
    readonly email: string
    readonly productId: string
    readonly name: string
    readonly capacity?: number
    /** `YYYY-MM-DD`. */
    readonly startsOn?: string
    readonly storeHandle?: string
  }) => Promise<CohortView>
  /** `svc customers tag`: tags a customer (tags shared with the store's email list); answers all their tags. */
  readonly tagCustomer: (input: {
    readonly email: string
    readonly customer: string
    readonly tags: ReadonlyArray<string>
    readonly storeHandle?: string
  }) => Promise<{
    readonly email: string
    readonly tags: ReadonlyArray<{ readonly id: string; readonly name: string }>
  }>
}

/** What the admin functions read from the embedded svc's runtime. */
type AdminServices = Accounts | ApiKeys | WorkspacesRepo | StoreSetup | CustomAis | StoreCohorts | StoreTagging

/** Runs an effect on the embedded svc; rejects with the failure itself. */
export type AdminRun = <A, E>(effect: Effect.Effect<A, E, AdminServices>) => Promise<A>

/** The admin functions over `run`. */
export const makeSvcAdmin = (run: AdminRun): SvcAdmin => ({
  createAccount: (input) =>
    run(
      Effect.map(
        Effect.flatMap(Accounts, (accounts) => accounts.create(input)),
        ({ account, workspace, store }) => ({
          accountId: account.id,
          workspaceId: workspace.id,
          storeHandle: store.handle
        })
      )
    ),
  setPlan: ({ email, plan }) =>
    run(Effect.asVoid(Effect.flatMap(Accounts, (accounts) => accounts.setPlan(email, plan)))),
  createApiKey: (input) =>
    run(
      Effect.gen(function* () {
        const account = yield* accountByEmail(input.email)
        const { key, token } = yield* (yield* ApiKeys).create(account.id, {
          name: input.name,
          access: input.access,
          storeHandle: input.storeHandle,
          expiresInDays: input.expiresInDays
        })
        return { keyId: key.id, token }
      })
    ),
  listApiKeys: ({ email }) =>
    run(
      Effect.gen(function* () {
        const account = yield* accountByEmail(email)
        return (yield* (yield* ApiKeys).list(account.id)).map(keyView)
      })
    ),
  revokeApiKey: (keyId) => run(Effect.flatMap(ApiKeys, (keys) => keys.revoke(keyId))),
  setStore: ({ email, ...changes }) =>
    run(
      Effect.gen(function* () {
        const account = yield* accountByEmail(email)
        const workspace = yield* (yield* WorkspacesRepo).findDefault(account.id)
        if (Option.isNone(workspace)) return yield* new NotFound({ message: `${email} has no default workspace` })
        yield* (yield* StoreSetup).set(workspace.value.id, changes)
      })
    ),
  createCustomAi: ({ email, name, storeHandle }) =>
    run(
      Effect.gen(function* () {
        const { workspaceId } = yield* storeOf(email, storeHandle)
        return { customAiId: (yield* (yield* CustomAis).create(workspaceId, { name })).id }
      })
    ),
  createCohort: ({ email, productId, name, capacity, startsOn, storeHandle }) =>
    run(
      Effect.gen(function* () {
        const { workspaceId } = yield* storeOf(email, storeHandle)
        const created = yield* (yield* StoreCohorts).create(workspaceId, {
          productId,
          name,
          capacity: capacity ?? null,
          startsOn: startsOn ?? null
        })
        return cohortJson(created)
      })
    ),
  tagCustomer: ({ email, customer, tags, storeHandle }) =>
    run(
      Effect.gen(function* () {
        const { workspaceId } = yield* storeOf(email, storeHandle)
        return yield* (yield* StoreTagging).tagPerson(workspaceId, customer, tags)
      })
    )
})
