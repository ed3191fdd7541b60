import { Schema } from "effect"
import { Billing } from "../catalog/product.js"
import { SaleRow } from "../api-rows.js"

// One named schema per polling feed: the OpenAPI file shows each feed's real fields, and the feeds
// decode every event through its row, so what a feed answers is what its schema says.

const iso = Schema.String.annotations({ description: "ISO 8601 timestamp, UTC." })
const eventId = Schema.String.annotations({ description: "The event's id (evt_…), stable across polls." })
const nullableString = Schema.NullOr(Schema.String)

/** How a person came to have a product. */
export const AccessHowLiteral = Schema.Literal(
  "bought",
  "free",
  "own_checkout",
  "added",
  "imported",
  "bundle"
).annotations({
  description:
    "bought (the service's checkout), free (a free claim), own_checkout (a sale reported through POST /sales), added (POST /customers), imported (a customer import) or bundle (given by a bundle the person bought)."
})

/** What a bundle sale gave for one product in the bundle. */
export const BundleProductLine = Schema.Struct({
  product_id: Schema.String,
  product_title: Schema.String,
  access: Schema.Literal("granted", "already_had", "access_off", "sold_out").annotations({
    description:
      "granted (the bundle gave it), already_had (the buyer had it and keeps it as it was), access_off or sold_out."
  })
}).annotations({ identifier: "BundleProductLine", description: "A product of a sold bundle and the access it gave." })

const bundleProducts = Schema.optional(Schema.Array(BundleProductLine)).annotations({
  description: "Bundle sales only: each product in the bundle and the access the sale gave."
})

/** A row of `GET /sales/recent`: the sale row, how it was sold, and the event's id. */
export const SaleFeedRow = Schema.Struct({
  ...SaleRow.fields,
  how: AccessHowLiteral,
  bundle_products: bundleProducts,
  event_id: eventId
}).annotations({ identifier: "SaleFeedRow", description: "A paid sale: the sale row plus how and event_id." })

/** A row of `GET /customers/recent`: a person's first access to a product. */
export const CustomerFeedRow = Schema.Struct({
  id: eventId,
  product_id: Schema.String,
  product_title: Schema.String,
  email: Schema.String,
  name: nullableString,
  how: AccessHowLiteral,
  bundle_id: Schema.optional(Schema.String).annotations({ description: "With how bundle: the bundle that gave it." }),
  created_at: iso
}).annotations({ identifier: "CustomerFeedRow", description: "A person's first access to a product." })

/** A first membership payment: the sale row's fields under the event's id, with `sale_id`. */
export const FirstPaymentRow = Schema.Struct({
  ...SaleRow.fields,
  id: eventId,
  how: AccessHowLiteral,
  bundle_products: bundleProducts,
  sale_id: Schema.String.annotations({ description: "The sale row's id (purchase:…)." }),
  payment: Schema.Literal("first")
}).annotations({ identifier: "FirstPaymentRow", description: "The first payment of a paid membership." })

/** A renewal payment of a membership. */
export const RenewalPaymentRow = Schema.Struct({
  id: eventId,
  product_id: Schema.String,
  product_title: Schema.String,
  buyer_email: Schema.String,
  buyer_name: nullableString,
  amount: Schema.Number.annotations({ description: "Major currency units." }),
  amount_cents: Schema.Int,
  currency: Schema.String,
  billing: Billing,
  order_id: nullableString,
  subscription_id: nullableString,
  paid_until: Schema.NullOr(iso),
  payment: Schema.Literal("renewal"),
  created_at: iso
}).annotations({ identifier: "RenewalPaymentRow", description: "A membership renewal." })

/** A row of `GET /memberships/payments`: `payment` tells a first payment from a renewal. */
export const MembershipPaymentRow = Schema.Union(FirstPaymentRow, RenewalPaymentRow).annotations({
  identifier: "MembershipPaymentRow",
  description: "payment first (the sale row's fields and sale_id) or renewal."
})

/** A row of `GET /memberships/changes`: a cancel or an end, each its own event. */
export const MembershipChangeRow = Schema.Struct({
  id: eventId,
  product_id: Schema.String,
  product_title: Schema.String,
  buyer_email: Schema.String,
  buyer_name: nullableString,
  subscription_id: nullableString,
  change: Schema.Literal("cancelled", "ended"),
  access_ends_at: Schema.NullOr(iso).annotations({ description: "When access runs out (now for an end)." }),
  created_at: iso
}).annotations({ identifier: "MembershipChangeRow", description: "A membership cancelled or ended." })

/** A row of `GET /refunds/recent`: the refunded sale's fields under the event's id. */
export const RefundFeedRow = Schema.Struct({
  ...SaleRow.fields,
  id: eventId,
  sale_id: Schema.String.annotations({ description: "The refunded sale row's id; the row itself is unchanged." }),
  refunded_at: iso,
  created_at: iso
}).annotations({ identifier: "RefundFeedRow", description: "A refund reported by an own checkout." })

/** A row of `GET /cohort-signups/recent`: a buyer moved into a cohort. */
export const CohortSignupRow = Schema.Struct({
  id: eventId,
  product_id: Schema.String,
  product_title: Schema.String,
  cohort_id: Schema.String,
  cohort_name: Schema.String,
  starts_on: Schema.NullOr(Schema.String).annotations({ description: "The cohort's start day, YYYY-MM-DD." }),
  email: Schema.String,
  name: nullableString,
  previous_cohort_id: nullableString.annotations({ description: "The cohort they left; null on a first signup." }),
  over_cap: Schema.Boolean.annotations({ description: "Added to a full cohort with over_cap: true." }),
  created_at: iso
}).annotations({ identifier: "CohortSignupRow", description: "A buyer moved into a cohort." })

/** A cohort of a product, as `GET /products/<id>/cohorts` and `POST /customers/cohort` answer it. */
export const CohortRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Cohort id (coh_…)." }),
  product_id: Schema.String,
  name: Schema.String,
  capacity: Schema.NullOr(Schema.Int).annotations({ description: "The most people it takes; null for no cap." }),
  starts_on: Schema.NullOr(Schema.String).annotations({ description: "Start day, YYYY-MM-DD; null when not set." }),
  members: Schema.Int.annotations({ description: "How many people are in it." }),
  spots_left: Schema.NullOr(Schema.Int).annotations({ description: "capacity minus members, never below 0." }),
  full: Schema.Boolean,
  created_at: iso
}).annotations({ identifier: "CohortRow", description: "A cohort of a product." })
