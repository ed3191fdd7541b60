/**
 * Imported testimonials (issue 43, reviews, first part) through the real app: `svc_import_product_reviews` adds a
 * seller's testimonials to a product, all or none, once each; the product's checkout page shows its rating and the
 * newest of them; none is an event of the New Review or New Testimonial feeds.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { engineName } from "../support/database.js"
import { checkoutSeller } from "./checkout-support.js"

layer(TestApp.layer, { excludeTestServices: true, timeout: "120 seconds" })(
  `product reviews on ${engineName}`,
  (it) => {
    it.effect("testimonials are imported once each, all or none, and shown with the rating on the product's page", () =>
      Effect.gen(function* () {
        const s = yield* checkoutSeller
        const id = yield* s.product({ title: "Course", price_cents: 4900 })
        const testimonials = [
          { text: "It changed how I write <every> morning.", name: "Ada", rating: 5, source: "Trustpilot" },
          { text: "Clear and kind.", name: "Ben", rating: 4, date: "2026-10-01" },
          { text: "I finished it in a week.", name: "Cy" }
        ]
        const imported = yield* s.tool("svc_import_product_reviews", { productId: id, reviews: testimonials })
        expect(imported.status, JSON.stringify(imported.body)).toBe(200)
        expect(imported.body).toMatchObject({ imported: 3, alreadyThere: 0, rating: { count: 2, average: 4.5 } })
        // The same import again adds nothing.
        const again = yield* s.tool("svc_import_product_reviews", { productId: id, reviews: testimonials })
        expect(again.body).toMatchObject({ imported: 0, alreadyThere: 3, rating: { count: 2, average: 4.5 } })

        // Every broken rule at once, on the row's own fields, and nothing kept (the good row neither).
        const bad = yield* s.tool("svc_import_product_reviews", {
          productId: id,
          reviews: [
            { text: "Good one that must not land.", name: "Dee", rating: 3 },
            { text: "   ", name: "Eve" },
            { text: "From the future.", date: "2999-01-01" },
            { text: "Bad address.", email: "not-an-address" }
          ]
        })
        expect(bad.status).toBe(422)
        const paths = (bad.body.errors as Array<{ path: string }>).map((e) => e.path)
        expect(paths).toEqual(["reviews.1.text", "reviews.2.date", "reviews.3.email"])
        const stars = yield* s.tool("svc_import_product_reviews", {
          productId: id,
          reviews: [{ text: "x", rating: 6 }]
        })
        expect(stars.status).toBe(422)
        const unknown = yield* s.tool("svc_import_product_reviews", {
          productId: "prod_nope",
          reviews: [{ text: "x" }]
        })
        expect(unknown.status).toBe(404)
        expect(JSON.stringify(unknown.body)).toContain("svc_get_custom_ai_product")

        // The product's page: the rating, and the testimonials newest first, escaped.
        const page = yield* Effect.promise(() => fetch(`${s.app.url}/c/${id}`).then((r) => r.text()))
        expect(page).toContain("4.5 out of 5 · 2 ratings")
        expect(page).toContain("What people say")
        expect(page).toContain("It changed how I write &#60;every&#62; morning.")
        expect(page).toContain("Ada, on Trustpilot")
        expect(page).not.toContain("Good one that must not land.")
        expect(page.indexOf("I finished it in a week.")).toBeLessThan(page.indexOf("Clear and kind."))

        // Imported testimonials are never an event of the review feeds.
        const events = yield* s.app.setUp(
          Effect.flatMap(SqlClient.SqlClient, (sql) =>
            Effect.orDie(sql<{ type: string }>`SELECT type FROM events WHERE workspace_id = ${s.workspaceId}
            AND type IN ('review.created', 'testimonial.created')`)
          )
        )
        expect(events).toEqual([])
      })
    )
  }
)
