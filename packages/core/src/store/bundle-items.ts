import { Effect, Option } from "effect"
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
          const found = yield* Effect.forEach(ids, (id) => products.find(bundle.workspaceId, id))
          return found.flatMap((p) => (Option.isSome(p) ? [p.value] : []))
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
