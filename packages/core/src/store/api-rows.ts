import { Schema } from "effect"
import { Billing, ProductFields, ProductStatus } from "./catalog/product.js"

// The store API's rows, shared by the store tools, the feeds (feed-rows.ts) and the contract (store-api/). The list
// and query shapes every API group uses, the webhooks group too, are in shared/list-wire.ts.

const nullableString = Schema.NullOr(Schema.String)
const iso = Schema.String.annotations({ description: "ISO 8601 timestamp, UTC." })

/** A product with every field. */
export const ProductRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Product id (prod_…)." }),
  kind: Schema.Literal("custom_ai", "bundle", "question").annotations({
    description:
      "custom_ai (sells a Custom AI or course), bundle (sells other products of the store together) or question (the buyer pays and asks; the seller answers)."
  }),
  custom_ai_id: Schema.NullOr(Schema.String).annotations({
    description: "The Custom AI it sells; null for a bundle or a paid question."
  }),
  bundle_product_ids: Schema.optional(Schema.Array(Schema.String)).annotations({
    description: "Bundles only: the ids of the products it sells, in order."
  }),
  status: ProductStatus,
  live: Schema.Boolean,
  ...ProductFields.fields,
  whats_included: Schema.Array(Schema.String).annotations({
    description: "The lines shown (the default ones when not set)."
  }),
  created_at: iso,
  updated_at: iso,
  published_at: Schema.NullOr(iso)
})

/** One thing left to do before publishing. */
export const ChecklistItemRow = Schema.Struct({
  item: Schema.Literal("support_email", "payment", "checkout_url", "bundle_products"),
  message: Schema.String
})

/** Every product answer: the product, whether it can go live, and what remains before it can. */
export const ProductAnswer = Schema.Struct({
  ok: Schema.Literal(true),
  product: ProductRow,
  can_publish: Schema.Boolean,
  publish_checklist: Schema.Array(ChecklistItemRow),
  quantity_left: Schema.optional(Schema.Int).annotations({
    description: "With a quantity_limit: places left (people with access hold one each)."
  }),
  waitlist_waiting: Schema.optional(Schema.Int).annotations({
    description: "With waitlist_mode or quantity_waitlist on: how many people are on the waitlist."
  })
})

/** A product in the plain products list. */
export const ProductSummary = Schema.Struct({
  id: Schema.String,
  name: Schema.String.annotations({ description: "Title plus billing label." }),
  title: Schema.String,
  billing: Billing,
  live: Schema.Boolean,
  ownCheckout: Schema.Boolean
})

/** One sale line. */
export const SaleRow = Schema.Struct({
  id: Schema.String.annotations({ description: "purchase:<id>" }),
  product_id: Schema.String,
  product_title: Schema.String,
  buyer_email: Schema.String,
  buyer_name: nullableString,
  amount: Schema.Number.annotations({ description: "Major currency units." }),
  amount_cents: Schema.Int,
  currency: Schema.String,
  billing: Billing,
  source: Schema.Literal("svc_checkout", "own_checkout"),
  order_id: nullableString,
  discount_code: nullableString,
  utm_source: nullableString,
  utm_medium: nullableString,
  utm_campaign: nullableString,
  utm_content: nullableString,
  utm_term: nullableString,
  fbclid: nullableString,
  referrer: nullableString,
  status: Schema.Literal("paid", "refunded", "free"),
  // Optional: events recorded before the service had its own checkout have no such field (read it as false).
  test: Schema.optional(Schema.Boolean).annotations({
    description: "True when the built-in test processor took it: no money moved, and the sales feeds leave it out."
  }),
  created_at: iso
})

/** A person's access to one product. */
export const AccessLine = Schema.Struct({
  product_id: Schema.String,
  product_title: Schema.String,
  has_access: Schema.Boolean,
  state: Schema.String.annotations({ description: "active, cancelled, ended, refunded or removed." }),
  how: Schema.NullOr(Schema.String).annotations({
    description: "bought, free, own_checkout, added, imported or bundle."
  }),
  paid_until: Schema.NullOr(iso),
  access_ends_at: Schema.NullOr(iso),
  bundle_id: Schema.NullOr(Schema.String).annotations({
    description: "The bundle that gave this access; null when the access is the person's own."
  }),
  content_links: Schema.Array(Schema.Struct({ title: Schema.String, url: Schema.String })).annotations({
    description: "The links the product delivers, in order; empty without access."
  })
})

/** One person with every product they have. */
export const CustomerRow = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  name: nullableString,
  created_at: iso,
  has_access: Schema.Boolean,
  products_with_access: Schema.Array(Schema.String),
  products: Schema.Array(AccessLine),
  tags: Schema.Array(Schema.String).annotations({ description: "The person's tag names, alphabetical." })
})

/** A match of `GET /customers/find`: the person, and one access line per product (spec: Customer find result). */
export const CustomerMatch = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  name: nullableString,
  created_at: iso,
  has_access: Schema.Boolean.annotations({ description: "Whether the person has access to any product now." }),
  products_with_access: Schema.Array(Schema.String).annotations({
    description: "Ids of the products the person has access to now."
  }),
  access: Schema.Array(AccessLine).annotations({ description: "One line per product the person has had." }),
  tags: Schema.Array(Schema.String).annotations({ description: "The person's tag names, alphabetical." })
})
