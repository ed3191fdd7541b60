import { Clock, Effect, Option } from "effect"
import { invalid, NotFound } from "../../shared/errors.js"
import { Ids, Transactor } from "../../shared/ports.js"
import { bundleDefaultFields, resolveBundledProducts } from "./bundle.js"
import { makeBundleItems } from "./bundle-items.js"
import { requireProductEditor, type StoreCaller } from "../../auth/store-caller.js"
import { StoreCatalog } from "./catalog.js"
import { BundlesRepo, ProductsRepo } from "./ports.js"
import { underFields } from "../tool-support.js"
import type { Product, ProductChanges } from "./product.js"
import type { ProductView } from "./product-view.js"

/** A bundle as the seller sees it: the bundle as a product, and the products it sells, in order. */
export interface BundleView {
  readonly view: ProductView
  readonly products: ReadonlyArray<Product>
}

/** What `svc_save_bundle` asks: a new bundle (no `bundleId`) or changes to one. */
export interface BundleSave {
  readonly bundleId?: string | undefined
  /** The products it sells, in order; required for a new bundle, replaces the list when given. */
  readonly productIds?: ReadonlyArray<string> | undefined
  readonly changes: ProductChanges
  /** Publish (`live`) or unpublish (`off`) in the same call, through the catalog's own publish checks. */
  readonly status?: "live" | "off" | undefined
}

/**
 * Bundles: products that sell several other products of the store together. A bundle is a product like any other
 * (the same fields, rules and publish flow of `StoreCatalog`) with no Custom AI and 2 to 20 products in it.
 */
export class StoreBundles extends Effect.Service<StoreBundles>()("svc/store/StoreBundles", {
  dependencies: [StoreCatalog.Default],
  effect: Effect.gen(function* () {
    const catalog = yield* StoreCatalog
    const products = yield* ProductsRepo
    const bundles = yield* BundlesRepo
    const bundleItems = yield* makeBundleItems
    const ids = yield* Ids
    const transactor = yield* Transactor

    const findBundle = (caller: StoreCaller, id: string) =>
      Effect.gen(function* () {
        const found = yield* products.find(caller.workspaceId, id)
        if (Option.isNone(found)) {
          return yield* new NotFound({ message: `no bundle ${id} in this store`, next: { _tag: "ListProducts" } })
        }
        if (found.value.kind !== "bundle") {
          return yield* new NotFound({
            message: `${id} is not a bundle but a Custom AI's product; read it with svc_get_custom_ai_product`
          })
        }
        return found.value
      })

    const resolve = (caller: StoreCaller, productIds: ReadonlyArray<string>) =>
      resolveBundledProducts(productIds, (ids) => products.findMany(caller.workspaceId, ids))

    /** The bundle as the catalog sees a product, with the products it sells. */
    const answer = (caller: StoreCaller, bundle: Product) =>
      Effect.gen(function* () {
        const view = yield* catalog.get(caller, bundle.id)
        const bundled = yield* bundleItems.productsOf(bundle)
        return { view, products: bundled } satisfies BundleView
      })

    /** One bundle with its products and publish checklist; a product that is not a bundle is `not-found`. */
    const get = (caller: StoreCaller, bundleId: string) =>
      Effect.flatMap(findBundle(caller, bundleId), (bundle) => answer(caller, bundle))

    const create = (caller: StoreCaller, productIds: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const bundled = yield* resolve(caller, productIds)
        const now = new Date(yield* Clock.currentTimeMillis)
        const bundle: Product = {
          id: yield* ids.make("prod_"),
          workspaceId: caller.workspaceId,
          kind: "bundle",
          customAiId: null,
          status: "draft",
          fields: bundleDefaultFields(bundled),
          createdAt: now,
          updatedAt: now,
          publishedAt: null
        }
        yield* products.insert(bundle)
        yield* bundles.setItems(caller.workspaceId, bundle.id, productIds)
        return bundle
      })

    const replaceItems = (caller: StoreCaller, bundle: Product, productIds: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const bundled = yield* resolve(caller, productIds)
        const notLive = bundled.filter((p) => p.status !== "live")
        if (bundle.status === "live" && notLive.length > 0) {
          return yield* invalid(
            "productIds",
            `the bundle is live, so every product in it must be live; publish ${notLive.map((p) => p.id).join(", ")} first or unpublish the bundle`
          )
        }
        yield* bundles.setItems(caller.workspaceId, bundle.id, productIds)
      })

    /**
     * Creates or changes a bundle, then publishes or unpublishes it when asked, in one transaction: a refused step
     * leaves nothing behind. Field changes go through `StoreCatalog.patch`, so a bundle keeps every product rule.
     */
    const save = (caller: StoreCaller, input: BundleSave) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          yield* requireProductEditor(caller)
          let bundle: Product
          if (input.bundleId === undefined) {
            if (input.productIds === undefined) {
              return yield* invalid("productIds", "a new bundle needs productIds, the products it sells")
            }
            bundle = yield* create(caller, input.productIds)
          } else {
            bundle = yield* findBundle(caller, input.bundleId)
            if (input.productIds !== undefined) yield* replaceItems(caller, bundle, input.productIds)
          }
          const changed = Object.values(input.changes).some((v) => v !== undefined)
          if (changed || input.bundleId === undefined) {
            yield* Effect.mapError(catalog.patch(caller, bundle.id, input.changes), underFields)
          }
          if (input.status === "live") yield* catalog.publish(caller, bundle.id)
          if (input.status === "off") yield* catalog.unpublish(caller, bundle.id)
          return yield* get(caller, bundle.id)
        })
      )

    return { get, save } as const
  })
}) {}
