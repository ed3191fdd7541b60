import { Effect } from "effect"
import { invalid, NotFound } from "../../shared/errors.js"
import { defaultProductFields, type Product, type ProductFields, WHATS_INCLUDED_MAX } from "./product.js"

/** The fewest products a bundle sells together: one product alone is just that product. */
export const BUNDLE_MIN_PRODUCTS = 2
/** The most products a bundle sells together. */
export const BUNDLE_MAX_PRODUCTS = 20

/** The publish checklist item only bundles have: every product in the bundle must be on sale itself. */
export interface BundleChecklistItem {
  readonly item: "bundle_products"
  readonly message: string
}

/** A bundled product as a bundle answer lists it. */
export const bundledProductJson = (product: Product) => ({
  id: product.id,
  title: product.fields.title,
  status: product.status
})

/** What a bundle's products still lack before the bundle can go live; empty when they are all live. */
export const bundleChecklist = (bundled: ReadonlyArray<Product>): ReadonlyArray<BundleChecklistItem> => {
  const notLive = bundled.filter((p) => p.status !== "live")
  return notLive.length === 0
    ? []
    : [
        {
          item: "bundle_products",
          message: `every product in the bundle must be live; publish ${notLive.map((p) => p.id).join(", ")} first`
        }
      ]
}

/**
 * The fields a new bundle starts from: no AI of its own, titled after its products unless the seller names it, and
 * listing the bundled products as what is included.
 */
export const bundleDefaultFields = (bundled: ReadonlyArray<Product>): ProductFields => {
  const titles = bundled.map((p) => p.fields.title)
  return {
    ...defaultProductFields(titles.join(" + "), false),
    whats_included: titles.slice(0, WHATS_INCLUDED_MAX).map((t) => t.slice(0, 200) || "Product")
  }
}

/**
 * The products a bundle will sell, checked: 2 to 20 ids, no repeats, each a product of this store (`not-found`
 * otherwise, as for ids of other stores) that is not a bundle. `find` looks an id up in the caller's store.
 */
export const resolveBundledProducts = <E, R>(
  productIds: ReadonlyArray<string>,
  findMany: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Product>, E, R>
) =>
  Effect.gen(function* () {
    if (productIds.length < BUNDLE_MIN_PRODUCTS || productIds.length > BUNDLE_MAX_PRODUCTS) {
      return yield* invalid(
        "productIds",
        `a bundle holds ${BUNDLE_MIN_PRODUCTS} to ${BUNDLE_MAX_PRODUCTS} products; ${productIds.length} given`
      )
    }
    const repeated = productIds.find((id, i) => productIds.indexOf(id) !== i)
    if (repeated !== undefined) return yield* invalid("productIds", `${repeated} is listed twice; list each once`)
    const byId = new Map((yield* findMany(productIds)).map((p) => [p.id, p]))
    const bundled: Array<Product> = []
    for (const id of productIds) {
      const product = byId.get(id)
      if (product === undefined) {
        return yield* new NotFound({ message: `no product ${id} in this store`, next: { _tag: "ListProducts" } })
      }
      if (product.kind === "bundle") {
        return yield* invalid("productIds", `${id} is a bundle itself; a bundle holds products that are not bundles`)
      }
      if (product.kind === "question") {
        return yield* invalid(
          "productIds",
          `${id} is a paid question, bought on its own because the buyer asks at its checkout; leave it out`
        )
      }
      bundled.push(product)
    }
    return bundled
  })
