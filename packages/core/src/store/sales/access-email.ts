import { Effect } from "effect"
import { Mailer } from "../../mail/ports.js"
import { type AccessOccasion, accessEmail } from "../../mail/templates.js"
import { makeBundleItems } from "../catalog/bundle-items.js"
import { ContentLinksRepo } from "../catalog/content-links.js"
import type { Product } from "../catalog/product.js"

export type { AccessOccasion } from "../../mail/templates.js"

/**
 * The one access email every face sends (a sale, a free grant, an import, a resend): what the person now has.
 * Call it inside the change's transaction, as `Mailer` asks.
 */
export const makeAccessEmail = Effect.gen(function* () {
  const mailer = yield* Mailer
  const contentLinks = yield* ContentLinksRepo
  const bundleItems = yield* makeBundleItems

  /** Sends `to` the access email for `product`; a bundle's one email names every product it gives. */
  const send = (product: Product, to: string, occasion: AccessOccasion) =>
    Effect.flatMap(
      Effect.zip(contentLinks.listForProduct(product.workspaceId, product.id), bundleItems.productsOf(product)),
      ([links, bundled]) =>
        mailer.send({
          workspaceId: product.workspaceId,
          to,
          ...accessEmail({
            occasion,
            productTitle: product.fields.title,
            included: bundled.map((p) => p.fields.title),
            links
          })
        })
    )

  return { send } as const
})
