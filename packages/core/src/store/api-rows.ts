import { Schema } from "effect"
import { Billing, ProductFields, ProductStatus } from "./catalog/product.js"

// The store API's rows and list shapes live with the store, not in store-api/, because the webhooks group
// (webhooks/api.ts) and the feeds (feed-rows.ts) build on them and store-api/ composes both.

const nullableString = Schema.NullOr(Schema.String)
const iso = Schema.String.annotations({ description: "ISO 8601 timestamp, UTC." })

/** A product with every field. */
export const ProductRow = Schema.Struct({
  id: Schema.String.annotations({ description: "Product id (prod_…)." }),
  kind: Schema.Literal("custom_ai", "bundle").annotations({
    description: "custom_ai (sells a Custom AI or course) or bundle (sells other products of the store together)."
  }),
  custom_ai_id: Schema.NullOr(Schema.String).annotations({ description: "The Custom AI it sells; null for a bundle." }),
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

/**
 * A page of a list. `next_cursor` is always a cursor: pass it as `starting_after` for the next page; on the
 * last page it points after the last row, so a poller can keep it and continue from there later.
 */
export const PageOf = <A, I>(row: Schema.Schema<A, I>) =>
  Schema.Struct({
    ok: Schema.Literal(true),
    data: Schema.Array(row),
    has_more: Schema.Boolean,
    next_cursor: Schema.String.annotations({
      description:
        "Cursor after the last row, for starting_after. On the last page too (keep it to continue later); " +
        "on an empty page, the starting_after asked with, or the start of the list."
    })
  })

/**
 * A query parameter taken as text, declared in the OpenAPI document as what it means (a number, a boolean, a choice),
 * so that generated clients type it so. The text stays the wire schema: the store's services read it and answer a bad
 * value with their own 400 message, which a decoding schema would replace.
 */
export const queryMeaning = (meaning: { readonly [keyword: string]: unknown }) =>
  Schema.String.annotations({ jsonSchema: meaning })

/** A query parameter that is one of fixed words. */
export const queryChoice = (choices: ReadonlyArray<string>) => queryMeaning({ type: "string", enum: choices })

/** A query parameter that is `true` or `false`. */
export const queryBoolean = queryMeaning({ type: "boolean" })

const instant = queryMeaning({ anyOf: [{ type: "string" }, { type: "integer", minimum: 0 }] })

/** The query every paged list takes. */
export const listQueryFields = {
  limit: Schema.optional(queryMeaning({ type: "integer", minimum: 1, maximum: 100, default: 25 })).annotations({
    description: "1 to 100, default 25."
  }),
  starting_after: Schema.optional(Schema.String).annotations({ description: "next_cursor of the previous page." }),
  created_after: Schema.optional(instant).annotations({ description: "ISO date or milliseconds." }),
  created_before: Schema.optional(instant).annotations({ description: "ISO date or milliseconds." })
}

/** Refuses query parameters and body fields the endpoint does not know. */
export const strict = { parseOptions: { onExcessProperty: "error" as const } }
