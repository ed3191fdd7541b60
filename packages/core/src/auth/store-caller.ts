import { Effect, Option } from "effect"
import { planAtLeast } from "../accounts/schema.js"
import { levelOf } from "./access.js"
import type { Principal } from "./schema.js"
import { AuthExpired, StoreAccessDenied } from "../shared/errors.js"
import type { Store } from "../accounts/workspace.js"
import { WorkspacesRepo } from "../accounts/ports.js"

/** Who calls the store API, and the one store the call acts on. */
export interface StoreCaller {
  readonly principal: Principal
  readonly store: Store
  readonly workspaceId: string
  /** Whether the credential may change things (not only read). */
  readonly canWrite: boolean
  /**
   * An automation-tool connection (an OAuth token with scope `store`) rather than an API key: it may
   * record sales and manage customers but never change products.
   */
  readonly automation: boolean
}

/** Resolves the caller of a store API request, applying the access rules every route shares. */
export const resolveStoreCaller = (principal: Principal, isChange: boolean) =>
  Effect.gen(function* () {
    if (!planAtLeast(principal.plan, "starter")) {
      return yield* new StoreAccessDenied({
        code: "plan",
        message: "the store API needs the Starter plan or above; upgrade the account's plan"
      })
    }
    const level = levelOf(principal.access, "store")
    if (level === "off") {
      return yield* new StoreAccessDenied({
        code: "api_key_access",
        message: "this key has no store access; make a key with Full access or Store set to Read or Edit"
      })
    }
    if (isChange && level !== "edit") {
      return yield* new StoreAccessDenied({
        code: "api_key_access",
        message: "this key may only read the store (GET); changes need a key with Store set to Edit"
      })
    }
    const store =
      principal.workspaceId === null ? Option.none() : yield* (yield* WorkspacesRepo).findStore(principal.workspaceId)
    if (Option.isNone(store)) {
      return yield* new AuthExpired({ message: "the key is not bound to a workspace with a store; make a new key" })
    }
    const caller: StoreCaller = {
      principal,
      store: store.value,
      workspaceId: store.value.workspaceId,
      canWrite: level === "edit",
      automation: principal.credential.kind === "oauth"
    }
    return caller
  })

/**
 * Refuses a change only an API key may make to automation connections (spec: product changes need an API key);
 * `what` is the change, as in "change products".
 */
export const requireApiKeyFor = (caller: StoreCaller, what: string) =>
  caller.automation
    ? Effect.fail(
        new StoreAccessDenied({
          code: "automation_connection",
          message: `an automation connection cannot ${what}; use an API key with Store set to Edit`
        })
      )
    : Effect.void

/** Refuses product changes to automation connections (spec: product changes need an API key). */
export const requireProductEditor = (caller: StoreCaller) => requireApiKeyFor(caller, "change products")
