import { Effect } from "effect"
import { makeEventRecorder } from "../../events/service.js"
import { type AccessState, hasAccess, type ProductAccess } from "./access.js"
import { makeBundleItems } from "../catalog/bundle-items.js"
import { AccessRepo } from "./ports.js"
import { BundlesRepo } from "../catalog/ports.js"
import type { Product } from "../catalog/product.js"
import { makeStock, type TurnedAway } from "../catalog/stock.js"

/** What a bundle sale or grant gave for one product in the bundle. */
export interface BundleAccessLine {
  readonly product_id: string
  readonly product_title: string
  /**
   * `granted`: the bundle gave it (or gives it again); `already_had`: the person had it already, and keeps it as it
   * was; `access_off`: the seller switched the person's own access off, and it stays off; `sold_out`: no place was
   * left on the product (a free grant; a sale is turned away before anything is given).
   */
  readonly access: "granted" | "already_had" | "access_off" | "sold_out"
}

const byId = (products: ReadonlyArray<Product>) =>
  [...products].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))

/** A product of a bundle that has no place left for a new buyer. */
export interface IncludedTurnedAway extends TurnedAway {
  readonly product: Product
}

/**
 * The access a bundle gives to each product in it. Every face that turns a person's access to a product on or off
 * (a sale event, a free grant, an import, a removal) calls these after changing the product's own access row, in
 * the same transaction; for a product that is not a bundle they do nothing.
 *
 * Access rows a bundle gave carry its id (`viaBundleId`); taking access back looks rows up by that id, not by the
 * bundle's current products, since a seller may change those after a sale. A row the person has on their own
 * (no `viaBundleId`, or another bundle's) is never touched.
 */
export const makeBundleAccess = Effect.gen(function* () {
  const bundles = yield* BundlesRepo
  const includedIn = (yield* makeBundleItems).productsOf
  const access = yield* AccessRepo
  const stock = yield* makeStock
  const recordEvent = yield* makeEventRecorder

  /**
   * Before a sale of a bundle: the first product in it with no place left for `email` (a quantity limit reached),
   * so that the sale is turned away whole. Call it before any access row is locked, as `turnAway` asks.
   */
  const turnAwayIncluded = (
    bundle: Product,
    email: string,
    name: string | null,
    now: Date
  ): Effect.Effect<IncludedTurnedAway | undefined> =>
    bundle.kind !== "bundle"
      ? Effect.succeed(undefined)
      : Effect.gen(function* () {
          for (const product of byId(yield* includedIn(bundle))) {
            const away = yield* stock.turnAway(product, email, name, now, "add")
            if (away !== undefined) return { ...away, product }
          }
          return undefined
        })

  const giveOne = (bundle: Product, product: Product, person: { email: string; name: string | null }, now: Date) =>
    Effect.gen(function* () {
      const line = (state: BundleAccessLine["access"]): BundleAccessLine => ({
        product_id: product.id,
        product_title: product.fields.title,
        access: state
      })
      if ((yield* stock.turnAway(product, person.email, person.name, now, "add")) !== undefined) {
        return line("sold_out")
      }
      const row = yield* access.lock(bundle.workspaceId, product.id, person.email, now)
      const ours = row.viaBundleId === bundle.id
      if (!ours && hasAccess(row, now.getTime())) return line("already_had")
      if (!ours && row.state === "removed") return line("access_off")
      yield* access.save({
        ...row,
        name: row.name ?? person.name,
        state: "active",
        how: "bundle",
        viaBundleId: bundle.id,
        endsAt: null,
        grantedAt: row.grantedAt ?? now,
        updatedAt: now
      })
      yield* stock.gotProduct(product, person.email)
      if (row.state === "none") {
        // The New Customer feed shows the access per product, so each product the bundle gives first is one event.
        yield* recordEvent(bundle.workspaceId, "customer.created", {
          product_id: product.id,
          product_title: product.fields.title,
          email: person.email,
          name: row.name ?? person.name,
          how: "bundle",
          bundle_id: bundle.id,
          created_at: now.toISOString()
        })
      }
      return line("granted")
    })

  /** After `email` got access to `product`: when it is a bundle, gives each product in it the person lacks. */
  const giveIncluded = (
    product: Product,
    person: { readonly email: string; readonly name: string | null },
    now: Date
  ): Effect.Effect<ReadonlyArray<BundleAccessLine>> =>
    product.kind !== "bundle"
      ? Effect.succeed([])
      : Effect.gen(function* () {
          const included = yield* includedIn(product)
          // Rows are locked in id order whatever the bundle's order, so two bundles never wait on each other.
          const lines = yield* Effect.forEach(byId(included), (item) => giveOne(product, item, person, now))
          return included.flatMap((p) => lines.filter((l) => l.product_id === p.id))
        })

  // Another bundle the person has now that also sells the product keeps the access on, as that bundle's.
  const otherBundleGiving = (bundle: Product, rows: ReadonlyArray<ProductAccess>, productId: string, now: Date) =>
    Effect.map(bundles.bundlesWith(bundle.workspaceId, productId), (holding) =>
      holding.find((id) => id !== bundle.id && rows.some((r) => r.productId === id && hasAccess(r, now.getTime())))
    )

  /**
   * After `email`'s access to `product` moved to `state` (cancelled, ended, refunded, removed): when it is a bundle,
   * moves the access it gave the same way, and leaves access the person had on their own.
   */
  const takeBackIncluded = (
    product: Product,
    email: string,
    change: { readonly state: AccessState; readonly endsAt: Date | null },
    now: Date
  ): Effect.Effect<void> =>
    product.kind !== "bundle"
      ? Effect.void
      : Effect.gen(function* () {
          const given = yield* bundles.givenBy(product.workspaceId, product.id, email)
          if (given.length === 0) return
          const rows = yield* access.accessOf(product.workspaceId, email)
          for (const productId of given) {
            const row = yield* access.lock(product.workspaceId, productId, email, now)
            if (row.viaBundleId !== product.id) continue
            const moves =
              change.state === "removed" ? row.state !== "none" : row.state === "active" || row.state === "cancelled"
            if (!moves) continue
            const other = yield* otherBundleGiving(product, rows, productId, now)
            if (other !== undefined) {
              yield* access.save({ ...row, state: "active", viaBundleId: other, endsAt: null, updatedAt: now })
              continue
            }
            yield* access.save({ ...row, state: change.state, endsAt: change.endsAt, updatedAt: now })
          }
        })

  return { giveIncluded, takeBackIncluded, turnAwayIncluded } as const
})
