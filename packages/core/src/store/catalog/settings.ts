import { Effect, Option, Schema } from "effect"
import { WorkspacesRepo } from "../../accounts/ports.js"
import { Email } from "../../accounts/schema.js"
import type { Store } from "../../accounts/workspace.js"
import { requireApiKeyFor, type StoreCaller } from "../../auth/store-caller.js"
import { type InvalidInput, invalid } from "../../shared/errors.js"
import { Transactor } from "../../shared/ports.js"
import { unstorableText } from "../../shared/storable-text.js"
import { ProcessorAccountsRepo } from "../checkout/ports.js"
import { type ProcessorStatus, processorStatusOf } from "../checkout/hosted-checkout.js"
import { StoreSettingsRepo } from "./ports.js"
import { StorePages } from "./store-pages.js"
import type { StoreSettings } from "./product-rules.js"

/** The longest store name. */
export const STORE_NAME_MAX = 100

/** Changes to a store's settings: a field left out is kept; `supportEmail: null` clears the support email. */
export interface StoreSettingsChanges {
  readonly name?: string | undefined
  readonly supportEmail?: string | null | undefined
  readonly cardProcessor?: string | undefined
  readonly emailListAddBuyers?: boolean | undefined
  readonly emailDoubleOptIn?: boolean | undefined
}

/** A store with its settings, as its owner and its API keys read them. */
export interface StoreSettingsView {
  readonly store: Store
  readonly settings: StoreSettings
  /** The live card processor account connected, if any (else a connected store takes test payments). */
  readonly processor: ProcessorStatus | null
}

/** Reading and changing a store's settings (support email, card processor, buyers joining the email list). */
export class StoreSetup extends Effect.Service<StoreSetup>()("svc/store/StoreSetup", {
  effect: Effect.gen(function* () {
    const repo = yield* StoreSettingsRepo
    const workspaces = yield* WorkspacesRepo
    const transactor = yield* Transactor
    const processorAccounts = yield* ProcessorAccountsRepo
    const pages = yield* StorePages

    const processorOf = (workspaceId: string) =>
      Effect.gen(function* () {
        const account = yield* processorAccounts.find(workspaceId)
        if (Option.isNone(account)) return null
        return processorStatusOf(account.value, pages.publicBase)
      })

    /** The store's settings (defaults: no support email, no card processor, buyers join the email list). */
    const get = (workspaceId: string) =>
      Effect.map(
        repo.find(workspaceId),
        Option.getOrElse(
          (): StoreSettings => ({
            workspaceId,
            supportEmail: null,
            cardProcessor: "none",
            emailListAddBuyers: true,
            emailDoubleOptIn: false
          })
        )
      )

    /** The store's name as given, trimmed, or the reason it cannot be one. */
    const checkName = (name: string): Effect.Effect<string, InvalidInput> => {
      const trimmed = name.trim()
      if (trimmed.length === 0 || trimmed.length > STORE_NAME_MAX) {
        return Effect.fail(invalid("name", `the store name must be 1 to ${STORE_NAME_MAX} characters`))
      }
      const unstorable = unstorableText(trimmed)
      return unstorable === undefined
        ? Effect.succeed(trimmed)
        : Effect.fail(invalid("name", `the store name ${unstorable}`))
    }

    /** Changes the fields given, in one transaction; `supportEmail: null` clears it. */
    const set = (workspaceId: string, changes: StoreSettingsChanges) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const current = yield* get(workspaceId)
          let supportEmail = current.supportEmail
          if (changes.supportEmail !== undefined) {
            supportEmail =
              changes.supportEmail === null
                ? null
                : yield* Schema.decodeUnknown(Email)(changes.supportEmail).pipe(
                    Effect.mapError(() =>
                      invalid("supportEmail", "the support email must be an address like help@example.com")
                    )
                  )
          }
          const processor = changes.cardProcessor ?? current.cardProcessor
          if (processor !== "connected" && processor !== "none") {
            return yield* invalid("cardProcessor", "the card processor is connected or none")
          }
          if (changes.name !== undefined) {
            const name = yield* checkName(changes.name)
            if (!(yield* workspaces.renameStore(workspaceId, name))) {
              return yield* invalid("name", "the workspace has no store to name")
            }
          }
          const next: StoreSettings = {
            workspaceId,
            supportEmail,
            cardProcessor: processor,
            emailListAddBuyers: changes.emailListAddBuyers ?? current.emailListAddBuyers,
            emailDoubleOptIn: changes.emailDoubleOptIn ?? current.emailDoubleOptIn
          }
          yield* repo.save(next)
          return next
        })
      )

    /** The caller's store and its settings. */
    const readFor = (caller: StoreCaller): Effect.Effect<StoreSettingsView> =>
      Effect.map(Effect.all([get(caller.workspaceId), processorOf(caller.workspaceId)]), ([settings, processor]) => ({
        store: caller.store,
        settings,
        processor
      }))

    /**
     * Changes the caller's store settings. Only an API key may: an automation connection records sales, it does not
     * set up the store.
     */
    const changeFor = (caller: StoreCaller, changes: StoreSettingsChanges) =>
      Effect.gen(function* () {
        yield* requireApiKeyFor(caller, "change the store's settings")
        const settings = yield* set(caller.workspaceId, changes)
        const store = yield* workspaces.findStore(caller.workspaceId)
        const view: StoreSettingsView = {
          store: Option.getOrElse(store, () => caller.store),
          settings,
          processor: yield* processorOf(caller.workspaceId)
        }
        return view
      })

    return { get, set, readFor, changeFor } as const
  })
}) {}
