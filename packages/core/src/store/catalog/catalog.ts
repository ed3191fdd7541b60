import { Clock, Effect, Option } from "effect"
import { AccountsRepo } from "../../accounts/ports.js"
import { CustomAisRepo } from "../../custom-ai/ports.js"
import { Conflict, invalid, NotFound } from "../../shared/errors.js"
import { Ids, Transactor } from "../../shared/ports.js"
import { requireProductEditor, type StoreCaller } from "../caller.js"
import { BadListRequest } from "../errors.js"
import { creationKey, pageAnswer, readListQuery, type StoreListQuery } from "../paging.js"
import { ProductsRepo, StoreSettingsRepo } from "./ports.js"
import {
  defaultProductFields,
  defaultWhatsIncluded,
  type Product,
  type ProductChanges,
  type ProductStatus
} from "./product.js"
import {
  applyChanges,
  type ChecklistItem,
  checkProductFields,
  publishChecklist,
  type StoreSettings
} from "./product-rules.js"
import { type BundleChecklistItem, bundleChecklist, bundleDefaultFields } from "./bundle.js"
import { makeBundleItems } from "./bundle-items.js"
import { makeStock } from "./stock.js"

/** A product with every field, as the store API answers it (a bundle with the ids of the products it sells). */
export const productJson = (product: Product, bundleProductIds?: ReadonlyArray<string>) => ({
  id: product.id,
  kind: product.kind,
  custom_ai_id: product.customAiId,
  ...(product.kind === "bundle" ? { bundle_product_ids: bundleProductIds ?? [] } : {}),
  status: product.status,
  live: product.status === "live",
  ...product.fields,
  whats_included: product.fields.whats_included ?? defaultWhatsIncluded(product.fields),
  created_at: product.createdAt.toISOString(),
  updated_at: product.updatedAt.toISOString(),
  published_at: product.publishedAt?.toISOString() ?? null
})

const billingLabel = { "one-time": "one-time", monthly: "monthly", yearly: "yearly" } as const

/** A product as the plain products list shows it. */
export const productSummaryJson = (product: Product) => ({
  id: product.id,
  name: `${product.fields.title} (${billingLabel[product.fields.billing]})`,
  title: product.fields.title,
  billing: product.fields.billing,
  live: product.status === "live",
  ownCheckout: product.fields.checkout_mode === "external"
})

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

    const settingsOf = (workspaceId: string) =>
      Effect.map(
        settingsRepo.find(workspaceId),
        Option.getOrElse(() => noSettings(workspaceId))
      )

    // What remains before going live; a bundle also needs every product in it live.
    const checklistOf = (product: Product) =>
      Effect.gen(function* () {
        const items: Array<ChecklistItem | BundleChecklistItem> = [
          ...publishChecklist(product.fields, yield* settingsOf(product.workspaceId))
        ]
        const bundled = yield* bundleItems.productsOf(product)
        if (product.kind === "bundle") items.push(...bundleChecklist(bundled))
        return { items, bundled }
      })

    // `quantity_left` and `waitlist_waiting` only where they apply (a quantity limit, a waitlist).
    const answer = (product: Product) =>
      Effect.gen(function* () {
        const { items: checklist, bundled } = yield* checklistOf(product)
        const standing = yield* stock.standing(product, new Date(yield* Clock.currentTimeMillis))
        return {
          ok: true as const,
          product: productJson(
            product,
            bundled.map((p) => p.id)
          ),
          can_publish: checklist.length === 0,
          publish_checklist: checklist,
          ...standing
        }
      })

    const findProduct = (caller: StoreCaller, id: string) =>
      Effect.flatMap(products.find(caller.workspaceId, id), (found) =>
        Option.match(found, {
          onNone: () =>
            Effect.fail(new NotFound({ message: `no product ${id} in this store; GET /products lists them` })),
          onSome: Effect.succeed
        })
      )

    /** The store identity of `GET /me`. */
    const me = (caller: StoreCaller) =>
      Effect.map(accounts.findById(caller.principal.accountId), (account) => ({
        ok: true as const,
        id: caller.principal.accountId,
        email: Option.match(account, { onNone: () => "", onSome: (a) => a.email }),
        handle: caller.store.handle,
        store: { handle: caller.store.handle, name: caller.store.name, workspace_id: caller.workspaceId }
      }))

    /** The store's Custom AIs and courses, each with its product id once one exists. */
    const listCustomAis = (caller: StoreCaller) =>
      Effect.gen(function* () {
        const all = yield* customAis.list(caller.workspaceId)
        const byCustomAi = new Map(
          (yield* products.listAll(caller.workspaceId)).flatMap((p) =>
            p.customAiId === null ? [] : [[p.customAiId, p.id] as const]
          )
        )
        return {
          ok: true as const,
          custom_ais: all.map((c) => ({
            id: c.id,
            name: c.name,
            kind: c.kind,
            product_id: byCustomAi.get(c.id) ?? null,
            created_at: c.createdAt.toISOString()
          }))
        }
      })

    /** Creates the draft product of a Custom AI (one per Custom AI). */
    const create = (caller: StoreCaller, customAiId: string, changes: ProductChanges) =>
      Effect.gen(function* () {
        yield* requireProductEditor(caller)
        const customAi = yield* customAis.find(caller.workspaceId, customAiId)
        if (Option.isNone(customAi)) {
          return yield* invalid("custom_ai_id", `no Custom AI ${customAiId} in this store; GET /custom-ais lists them`)
        }
        const defaults = defaultProductFields(customAi.value.name, customAi.value.kind === "assistant")
        const fields = applyChanges(defaults, changes, defaults)
        const broken = checkProductFields(fields)
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
            message: `Custom AI ${customAiId} already has a product; change it with PATCH /products/<id>`
          })
        }
        return yield* answer(product)
      })

    /** One product with every field. */
    const get = (caller: StoreCaller, id: string) => Effect.flatMap(findProduct(caller, id), answer)

    /** The id of a Custom AI's product, none while it has none; a Custom AI not in this store is `not-found`. */
    const productIdOfCustomAi = (caller: StoreCaller, customAiId: string) =>
      Effect.gen(function* () {
        if (Option.isNone(yield* customAis.find(caller.workspaceId, customAiId))) {
          return yield* new NotFound({
            message: `no Custom AI ${customAiId} in this store; GET /custom-ais lists them`
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
              : defaultProductFields(
                  Option.match(customAi, { onNone: () => product.fields.title, onSome: (c) => c.name }),
                  Option.match(customAi, { onNone: () => true, onSome: (c) => c.kind === "assistant" })
                )
          const fields = applyChanges(product.fields, changes, defaults)
          const broken = checkProductFields(fields)
          if (broken) return yield* broken
          if (product.status === "live") {
            const checklist = publishChecklist(fields, yield* settingsOf(caller.workspaceId))
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

    /** Plain list: summaries, newest first, own-checkout products on top, drafts left out. */
    const listSummaries = (caller: StoreCaller) =>
      Effect.map(products.listAll(caller.workspaceId), (all) => {
        const shown = all.filter((p) => p.status !== "draft")
        const own = shown.filter((p) => p.fields.checkout_mode === "external")
        const rest = shown.filter((p) => p.fields.checkout_mode !== "external")
        return { ok: true as const, products: [...own, ...rest].map(productSummaryJson) }
      })

    /** Paged list of full product rows, drafts included, optionally of one status. */
    const listPage = (caller: StoreCaller, query: StoreListQuery & { readonly status?: string | undefined }) =>
      Effect.gen(function* () {
        const status = query.status
        if (status !== undefined && status !== "draft" && status !== "live" && status !== "off") {
          return yield* new BadListRequest({ message: "status must be draft, live or off" })
        }
        const { page, range } = yield* readListQuery(query)
        const rows = yield* products.listPage(caller.workspaceId, { status, ...range }, page)
        const bundled = yield* bundleItems.idsOf(caller.workspaceId, rows.rows)
        return pageAnswer(rows, (p) => productJson(p, bundled.get(p.id)), page, creationKey)
      })

    return {
      me,
      listCustomAis,
      create,
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
