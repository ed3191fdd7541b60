import { Effect, Option } from "effect"
import { Mailer } from "../../mail/ports.js"
import { type AccessOccasion, accessEmail } from "../../mail/templates.js"
import { makeBundleItems } from "../catalog/bundle-items.js"
import { ContentLinksRepo } from "../catalog/content-links.js"
import type { Product } from "../catalog/product.js"
import { makeCourseLinks } from "../courses/course-links.js"

export type { AccessOccasion } from "../../mail/templates.js"

/**
 * The one access email every face sends (a sale, a free grant, an import, a resend): what the person now has.
 * Call it inside the change's transaction, as `Mailer` asks.
 */
export const makeAccessEmail = Effect.gen(function* () {
  const mailer = yield* Mailer
  const contentLinks = yield* ContentLinksRepo
  const bundleItems = yield* makeBundleItems
  const courseLinks = yield* makeCourseLinks

  /**
   * Sends `to` the access email for `product`; a bundle's one email names every product it gives. A course (or a
   * bundle's) comes with the link of the person's own course page.
   */
  const send = (product: Product, to: string, occasion: AccessOccasion, name: string | null = null) =>
    Effect.gen(function* () {
      const [links, bundled] = yield* Effect.zip(
        contentLinks.listForProduct(product.workspaceId, product.id),
        bundleItems.productsOf(product)
      )
      const courses = yield* Effect.forEach([product, ...bundled], (course) =>
        Effect.map(
          courseLinks.linkFor(course, to, name),
          Option.map((url) => ({ title: course.fields.title, url }))
        )
      )
      yield* mailer.send({
        workspaceId: product.workspaceId,
        to,
        ...accessEmail({
          occasion,
          productTitle: product.fields.title,
          included: bundled.map((p) => p.fields.title),
          links,
          courses: courses.flatMap((course) => Option.toArray(course))
        })
      })
    })

  return { send } as const
})
