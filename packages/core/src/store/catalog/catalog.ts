import { Clock, Effect, Option } from "effect"
import { AccountsRepo } from "../../accounts/ports.js"
import { CustomAisRepo } from "../../custom-ai/ports.js"
import { Conflict, invalid, NotFound } from "../../shared/errors.js"
import { Ids, Transactor } from "../../shared/ports.js"
import { requireProductEditor, type StoreCaller } from "../../auth/store-caller.js"
import { ProductsRepo, StoreSettingsRepo } from "./ports.js"
import { StorePages } from "./store-pages.js"
import type { CreatedRange, PageRequest } from "../../shared/paging.js"
import {
  defaultProductFields,
  type Product,
  type ProductChanges,
  type ProductStatus,
  questionDefaultFields
} from "./product.js"
import type { ListedProduct, ProductView, SellableCustomAi, StoreIdentity } from "./product-view.js"
import {
  applyChanges,
  type ChecklistItem,
  checkProductFields,
  checklistMessages,
  publishChecklist,
  type StoreSettings
} from "./product-rules.js"
import { type BundleChecklistItem, bundleChecklist, bundleDefaultFields } from "./bundle.js"
import { makeBundleItems } from "./bundle-items.js"
import { makeStock } from "./stock.js"

const noSettings = (workspaceId: string): StoreSettings => ({
  workspaceId,
  supportEmail: null,
  cardProcessor: "none",
  emailListAddBuyers: true,
  emailDoubleOptIn: false
})

/** The seller's side of the store: identity, Custom AIs, and products from draft to live. */
export class StoreCatalog extends Effect.Service<StoreCatalog>()("svc/store/StoreCatalog", {
  effect: Effect.gen(function* () {
    const products = yield* ProductsRepo
    const settingsRepo = yield* StoreSettingsRepo
    const customAis = yield* CustomAisRepo
    const accounts = yield* AccountsRepo
    const ids = yield* Ids
    const transactor = yield* Transactor
    const stock = yield* makeStock
    const bundleItems = yield* makeBundleItems
    const messages = checklistMessages((yield* StorePages).settingsPage)

    const settingsOf = (workspaceId: string) =>
      Effect.map(
        settingsRepo.find(workspaceId),
        Option.getOrElse(() => noSettings(workspaceId))
      )

    // What remains before going live; a bundle also needs every product in it live.
    const checklistOf = (product: Product) =>
      Effect.gen(function* () {
        const items: Array<ChecklistItem | BundleChecklistItem> = [
          ...publishChecklist(product.fields, yield* settingsOf(product.workspaceId), messages)
        ]
        const bundled = yield* bundleItems.productsOf(product)
        if (product.kind === "bundle") items.push(...bundleChecklist(bundled))
        return { items, bundled }
      })

    const answer = (product: Product) =>
      Effect.gen(function* () {
        const { items: checklist, bundled } = yield* checklistOf(product)
        const standing = yield* stock.standing(product, new Date(yield* Clock.currentTimeMillis))
        const view: ProductView = {
          product,
          bundleProductIds: bundled.map((p) => p.id),
          checklist,
          quantityLeft: Option.fromNullable(standing.quantity_left),
          waitlistWaiting: Option.fromNullable(standing.waitlist_waiting)
        }
        return view
      })

    const findProduct = (caller: StoreCaller, id: string) =>
      Effect.flatMap(products.find(caller.workspaceId, id), (found) =>
        Option.match(found, {
          onNone: () =>
            Effect.fail(new NotFound({ message: `no product ${id} in this store`, next: { _tag: "ListProducts" } })),
          onSome: Effect.succeed
        })
      )

    /** The store identity of the credential. */
    const me = (caller: StoreCaller) =>
      Effect.map(
        accounts.findById(caller.principal.accountId),
        (account): StoreIdentity => ({
          accountId: caller.principal.accountId,
          email: Option.match(account, { onNone: () => "", onSome: (a) => a.email }),
          handle: caller.store.handle,
          name: caller.store.name,
          workspaceId: caller.workspaceId
        })
      )

    /** The store's Custom AIs and courses, each with its product id once one exists. */
    const listCustomAis = (caller: StoreCaller) =>
      Effect.gen(function* () {
        const all = yield* customAis.list(caller.workspaceId)
        const byCustomAi = new Map(
          (yield* products.listAll(caller.workspaceId)).flatMap((p) =>
            p.customAiId === null ? [] : [[p.customAiId, p.id] as const]
          )
        )
        return all.map(
          (c): SellableCustomAi => ({
            id: c.id,
            name: c.name,
            kind: c.kind,
            productId: Option.fromNullable(byCustomAi.get(c.id)),
            createdAt: c.createdAt
          })
        )
      })

    /** Creates the draft product of a Custom AI (one per Custom AI). */
    const create = (caller: StoreCaller, customAiId: string, changes: ProductChanges) =>
      Effect.gen(function* () {
        yield* requireProductEditor(caller)
        const customAi = yield* customAis.find(caller.workspaceId, customAiId)
        if (Option.isNone(customAi)) {
          return yield* invalid("custom_ai_id", `no Custom AI ${customAiId} in this store`, { _tag: "ListCustomAis" })
        }
        const defaults = defaultProductFields(customAi.value.name, customAi.value.kind === "assistant")
        const fields = applyChanges(defaults, changes, defaults)
        const broken = checkProductFields(fields, "custom_ai")
        if (broken) return yield* broken
        const now = new Date(yield* Clock.currentTimeMillis)
        const product: Product = {
          id: yield* ids.make("prod_"),
          workspaceId: caller.workspaceId,
          kind: "custom_ai",
          customAiId,
          status: "draft",
          fields,
          createdAt: now,
          updatedAt: now,
          publishedAt: null
        }
        if (!(yield* products.insert(product))) {
          return yield* new Conflict({
            message: `Custom AI ${customAiId} already has a product`,
            next: { _tag: "ChangeProduct" }
          })
        }
        return yield* answer(product)
      })

    /**
     * Creates a draft paid-question product: the buyer pays and asks at its checkout, and the seller answers within
     * `answer_within_days`. A store may have several (one per price or topic).
     */
    const createQuestion = (caller: StoreCaller, changes: ProductChanges) =>
      Effect.gen(function* () {
        yield* requireProductEditor(caller)
        const defaults = questionDefaultFields()
        const fields = applyChanges(defaults, changes, defaults)
        const broken = checkProductFields(fields, "question")
        if (broken) return yield* broken
        const now = new Date(yield* Clock.currentTimeMillis)
        const product: Product = {
          id: yield* ids.make("prod_"),
          workspaceId: caller.workspaceId,
          kind: "question",
          customAiId: null,
          status: "draft",
          fields,
          createdAt: now,
          updatedAt: now,
          publishedAt: null
        }
        yield* products.insert(product)
        return yield* answer(product)
      })

    /**
     * A new product of the kind asked: a Custom AI's (`customAiId` needed) or a paid question (none allowed). What
     * `POST /products` does; bundles are made by `StoreBundles`.
     */
    const createOfKind = (
      caller: StoreCaller,
      what: { readonly kind?: "custom_ai" | "question" | undefined; readonly customAiId?: string | undefined },
      changes: ProductChanges
    ) => {
      if (what.kind === "question") {
        return what.customAiId === undefined
          ? createQuestion(caller, changes)
          : Effect.fail(
              invalid("custom_ai_id", "a paid question sells your answer, not a Custom AI; leave custom_ai_id out")
            )
      }
      return what.customAiId === undefined
        ? Effect.fail(
            invalid(
              "custom_ai_id",
              "custom_ai_id is needed: the Custom AI to sell (or kind question for a paid question)",
              {
                _tag: "ListCustomAis"
              }
            )
          )
        : create(caller, what.customAiId, changes)
    }

    /** One product with every field. */
    const get = (caller: StoreCaller, id: string) => Effect.flatMap(findProduct(caller, id), answer)

    /** The id of a Custom AI's product, none while it has none; a Custom AI not in this store is `not-found`. */
    const productIdOfCustomAi = (caller: StoreCaller, customAiId: string) =>
      Effect.gen(function* () {
        if (Option.isNone(yield* customAis.find(caller.workspaceId, customAiId))) {
          return yield* new NotFound({
            message: `no Custom AI ${customAiId} in this store`,
            next: { _tag: "ListCustomAis" }
          })
        }
        return Option.map(yield* products.findByCustomAi(caller.workspaceId, customAiId), (product) => product.id)
      })

    /** Changes fields (left out: kept, null: default); a live product must still pass its publish checks. */
    const patch = (caller: StoreCaller, id: string, changes: ProductChanges) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          yield* requireProductEditor(caller)
          const product = yield* findProduct(caller, id)
          const customAi =
            product.customAiId === null ? Option.none() : yield* customAis.find(caller.workspaceId, product.customAiId)
          const defaults =
            product.kind === "bundle"
              ? bundleDefaultFields(yield* bundleItems.productsOf(product))
              : product.kind === "question"
                ? questionDefaultFields()
                : defaultProductFields(
                    Option.match(customAi, { onNone: () => product.fields.title, onSome: (c) => c.name }),
                    Option.match(customAi, { onNone: () => true, onSome: (c) => c.kind === "assistant" })
                  )
          const fields = applyChanges(product.fields, changes, defaults)
          const broken = checkProductFields(fields, product.kind)
          if (broken) return yield* broken
          if (product.status === "live") {
            const checklist = publishChecklist(fields, yield* settingsOf(caller.workspaceId), messages)
            if (checklist.length > 0) {
              return yield* invalid(
                checklist[0]?.item ?? "",
                `the product is live and this change would break its publish checks: ${checklist.map((c) => c.message).join("; ")}`
              )
            }
          }
          const updated: Product = { ...product, fields, updatedAt: new Date(yield* Clock.currentTimeMillis) }
          yield* products.update(updated)
          return yield* answer(updated)
        })
      )

    const setStatus = (caller: StoreCaller, id: string, status: ProductStatus) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          yield* requireProductEditor(caller)
          const product = yield* findProduct(caller, id)
          if (status === "live") {
            const checklist = (yield* checklistOf(product)).items
            if (checklist.length > 0) {
              return yield* new Conflict({
                message: `the product cannot go live yet: ${checklist.map((c) => c.message).join("; ")}`
              })
            }
          }
          if (product.status === status || (status === "off" && product.status === "draft"))
            return yield* answer(product)
          const now = new Date(yield* Clock.currentTimeMillis)
          const updated: Product = {
            ...product,
            status,
            updatedAt: now,
            publishedAt: status === "live" ? now : product.publishedAt
          }
          yield* products.update(updated)
          return yield* answer(updated)
        })
      )

    /** Puts a product live once its checklist is met; buyers who already bought see the new version. */
    const publish = (caller: StoreCaller, id: string) => setStatus(caller, id, "live")

    /** Stops sales; buyers keep what they have. A draft stays a draft. */
    const unpublish = (caller: StoreCaller, id: string) => setStatus(caller, id, "off")

    /** The products on show: newest first, own-checkout products on top, drafts left out. */
    const listSummaries = (caller: StoreCaller) =>
      Effect.map(products.listAll(caller.workspaceId), (all): ReadonlyArray<Product> => {
        const shown = all.filter((p) => p.status !== "draft")
        const own = shown.filter((p) => p.fields.checkout_mode === "external")
        const rest = shown.filter((p) => p.fields.checkout_mode !== "external")
        return [...own, ...rest]
      })

    /** One page of products, drafts included, newest first, optionally of one status and creation window. */
    const listPage = (
      caller: StoreCaller,
      query: { readonly status?: ProductStatus | undefined; readonly page: PageRequest; readonly created: CreatedRange }
    ) =>
      Effect.gen(function* () {
        const rows = yield* products.listPage(
          caller.workspaceId,
          { status: query.status, ...query.created },
          query.page
        )
        const bundled = yield* bundleItems.idsOf(caller.workspaceId, rows.rows)
        return {
          rows: rows.rows.map(
            (product): ListedProduct => ({ product, bundleProductIds: bundled.get(product.id) ?? [] })
          ),
          next: rows.next
        }
      })

    return {
      me,
      listCustomAis,
      create,
      createQuestion,
      createOfKind,
      get,
      productIdOfCustomAi,
      patch,
      publish,
      unpublish,
      listSummaries,
      listPage,
      settingsOf
    } as const
  })
}) {}
