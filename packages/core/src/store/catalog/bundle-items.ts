import { Effect } from "effect"
import { BundlesRepo, ProductsRepo } from "./ports.js"
import type { Product } from "./product.js"

/** Reading what bundles sell: the products of one bundle, and the product ids of several. */
export const makeBundleItems = Effect.gen(function* () {
  const bundles = yield* BundlesRepo
  const products = yield* ProductsRepo

  /** The products a bundle sells now, in order (none for a product that is not a bundle). */
  const productsOf = (bundle: Product): Effect.Effect<ReadonlyArray<Product>> =>
    bundle.kind !== "bundle"
      ? Effect.succeed([])
      : Effect.gen(function* () {
          const ids = yield* bundles.items(bundle.workspaceId, bundle.id)
          // One read for the bundle's products, not one per product; the bundle's order is kept.
          const byId = new Map((yield* products.findMany(bundle.workspaceId, ids)).map((p) => [p.id, p]))
          return ids.flatMap((id) => byId.get(id) ?? [])
        })

  /** The product ids each bundle among `rows` sells, by bundle id. */
  const idsOf = (workspaceId: string, rows: ReadonlyArray<Product>) => {
    const bundleIds = rows.filter((p) => p.kind === "bundle").map((p) => p.id)
    return bundleIds.length === 0
      ? Effect.succeed<ReadonlyMap<string, ReadonlyArray<string>>>(new Map())
      : bundles.itemsOf(workspaceId, bundleIds)
  }

  return { productsOf, idsOf } as const
})
