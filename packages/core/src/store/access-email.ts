import { Effect } from "effect"
import { Mailer } from "../mail/ports.js"
import { makeBundleItems } from "./bundle-items.js"
import { ContentLinksRepo } from "./content-links.js"
import type { Product } from "./product.js"

/** Why a person is sent their access email. */
export type AccessOccasion = "bought" | "added" | "again"

const opening: Record<AccessOccasion, (title: string) => string> = {
  bought: (title) => `Thank you for your purchase. You now have access to ${title}.`,
  added: (title) => `You have been given access to ${title}.`,
  again: (title) => `Here is your access to ${title} again.`
}

/**
 * The one access email every face sends (a sale, a free grant, an import, a resend): what the person now has.
 * Call it inside the change's transaction, as `Mailer` asks.
 */
export const makeAccessEmail = Effect.gen(function* () {
  const mailer = yield* Mailer
  const contentLinks = yield* ContentLinksRepo
  const bundleItems = yield* makeBundleItems

  // A bundle's one email names every product it gives.
  const includes = (product: Product) =>
    Effect.map(bundleItems.productsOf(product), (bundled) =>
      bundled.length === 0 ? [] : [`It includes: ${bundled.map((p) => p.fields.title).join(", ")}.`]
    )

  /** Sends `to` the access email for `product`. */
  const send = (product: Product, to: string, occasion: AccessOccasion) =>
    Effect.flatMap(
      Effect.zip(contentLinks.listForProduct(product.workspaceId, product.id), includes(product)),
      ([links, included]) =>
        mailer.send({
          workspaceId: product.workspaceId,
          kind: "store.access",
          to,
          subject: `Your access to ${product.fields.title}`,
          // The product's content links, one `title: url` line each, are what the person now has.
          text: [
            opening[occasion](product.fields.title),
            ...included,
            ...links.map((l) => `${l.title}: ${l.url}`)
          ].join("\n")
        })
    )

  return { send } as const
})
