import { Schema } from "effect"

/** The smallest non-zero price, in cents: card fees make anything below it a loss. */
export const MIN_PRICE_CENTS = 100

/**
 * The largest amount a product may ask, $999,999.99: what card processors take in one payment, and well inside
 * the 32-bit column a sale's amount is recorded in (a larger price failed the sale with a database error).
 */
export const MAX_PRICE_CENTS = 99_999_999
/** The AI credits a product may include in its price. */
export const INCLUDED_CREDITS = [0, 100, 250, 500, 1000] as const
/** The fewest and most days a paid-question product may take to answer, and what a new one takes. */
export const ANSWER_WITHIN_DAYS_MIN = 1
export const ANSWER_WITHIN_DAYS_MAX = 30
export const ANSWER_WITHIN_DAYS_DEFAULT = 3
/** How many lines `whats_included` may hold. */
export const WHATS_INCLUDED_MAX = 12

const text = (max: number, description: string) =>
  Schema.String.pipe(Schema.maxLength(max)).annotations({ description: `${description} Up to ${max} characters.` })

/** How a product is paid: once, or as a membership billed monthly or yearly. */
export const Billing = Schema.Literal("one-time", "monthly", "yearly").annotations({
  description: "one-time, monthly or yearly (monthly and yearly are memberships)."
})
export type Billing = typeof Billing.Type

/** A product's state: never published, on sale, or taken off sale. */
export const ProductStatus = Schema.Literal("draft", "live", "off").annotations({
  description: "draft (never published), live (on sale) or off (unpublished)."
})
export type ProductStatus = typeof ProductStatus.Type

const Cents = Schema.Int.pipe(Schema.nonNegative()).annotations({ description: "Amount in cents, 0 or more." })

/** The parts of a product page that can be shown, hidden and ordered. */
export const SectionKey = Schema.Literal(
  "hero",
  "video",
  "whats_included",
  "body",
  "creator_bio",
  "faq",
  "refund_policy"
)

/** Which page sections show (`faq: false` hides the FAQ) and in what order. */
export const Sections = Schema.Struct({
  order: Schema.optional(Schema.Array(SectionKey).pipe(Schema.maxItems(7))).annotations({
    description: "Section keys in the order they appear."
  }),
  hero: Schema.optional(Schema.Boolean),
  video: Schema.optional(Schema.Boolean),
  whats_included: Schema.optional(Schema.Boolean),
  body: Schema.optional(Schema.Boolean),
  creator_bio: Schema.optional(Schema.Boolean),
  faq: Schema.optional(Schema.Boolean),
  refund_policy: Schema.optional(Schema.Boolean)
}).annotations({
  description: "Show (true) or hide (false) each page section; `order` lists them in display order.",
  parseOptions: { onExcessProperty: "error" }
})

/** A one-time price paid in monthly parts. */
export const PaymentPlan = Schema.Struct({
  count: Schema.Int.pipe(Schema.between(2, 36)).annotations({ description: "Number of monthly parts, 2 to 36." }),
  amount_cents: Cents
}).annotations({ parseOptions: { onExcessProperty: "error" } })

/** Every field of a product a seller sets, as stored and answered (snake_case, as the store API speaks). */
export const ProductFields = Schema.Struct({
  title: text(200, "Product name."),
  slug: Schema.String.pipe(Schema.pattern(/^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/)).annotations({
    description: "End of the product's web address: 1 to 60 lower-case letters, digits or dashes."
  }),
  tagline: Schema.NullOr(text(300, "Short line under the name.")),
  headline: Schema.NullOr(text(300, "Large line at the page top.")),
  subheadline: Schema.NullOr(text(500, "Line under the headline.")),
  price_cents: Cents.annotations({
    description: `Price in cents; 0 is free, otherwise ${MIN_PRICE_CENTS} to ${MAX_PRICE_CENTS}.`
  }),
  billing: Billing,
  yearly_price_cents: Schema.NullOr(Cents).annotations({
    description: `With monthly billing only: a yearly price buyers can pick instead, ${MIN_PRICE_CENTS} to ${MAX_PRICE_CENTS}.`
  }),
  compare_at_cents: Schema.NullOr(Cents).annotations({
    description: `Crossed-out was-price in cents, at most ${MAX_PRICE_CENTS}.`
  }),
  trial_days: Schema.NullOr(Schema.Int.pipe(Schema.between(1, 365))).annotations({
    description: "Memberships only: free days (1 to 365) before the first charge."
  }),
  payment_plan: Schema.NullOr(PaymentPlan).annotations({
    description: "One-time paid products only: the price paid in `count` monthly parts of `amount_cents`."
  }),
  quantity_limit: Schema.NullOr(Schema.Int.pipe(Schema.between(1, 1_000_000))).annotations({
    description: "Sell at most this many; null for no limit."
  }),
  quantity_show_left: Schema.Boolean.annotations({ description: "Show how many are left (with quantity_limit)." }),
  quantity_waitlist: Schema.Boolean.annotations({ description: "Take a waitlist once sold out." }),
  waitlist_mode: Schema.Boolean.annotations({ description: "Take waitlist emails instead of selling." }),
  waitlist_opens_at: Schema.NullOr(
    Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}$/, { message: () => "must be a day as YYYY-MM-DD" }))
  ).annotations({ description: "Optional open day, YYYY-MM-DD." }),
  included_credits: Schema.Literal(...INCLUDED_CREDITS).annotations({
    description: "AI credits included in the price."
  }),
  chat_enabled: Schema.Boolean.annotations({ description: "false turns the AI off: a course or download." }),
  checkout_mode: Schema.Literal("svc", "external").annotations({
    description: "svc (the service's checkout) or external (your own checkout link in checkout_url)."
  }),
  checkout_url: Schema.NullOr(text(2000, "Own checkout link (http or https), used when checkout_mode is external.")),
  body_markdown: Schema.NullOr(text(50_000, "Page body, Markdown.")),
  faq_markdown: Schema.NullOr(text(20_000, "FAQ, Markdown.")),
  creator_bio: Schema.NullOr(text(5_000, "About the creator.")),
  refund_policy: Schema.NullOr(text(5_000, "Refund policy.")),
  welcome_markdown: Schema.NullOr(text(50_000, "The Start here page shown after purchase, Markdown.")),
  hero_image_url: Schema.NullOr(text(2000, "Hero image address (http or https).")),
  video_url: Schema.NullOr(text(2000, "Video address (http or https).")),
  theme: Schema.NullOr(Schema.Literal("light", "dark")).annotations({ description: "Page theme: light or dark." }),
  accent: Schema.NullOr(
    Schema.String.pipe(Schema.pattern(/^#[0-9a-fA-F]{6}$/, { message: () => "must be a colour like #3366ff" }))
  ).annotations({ description: "Accent colour, #rrggbb." }),
  cta_label: Schema.NullOr(text(60, "Buy button label.")),
  sign_off: Schema.NullOr(text(300, "Closing line of the page.")),
  whats_included: Schema.NullOr(
    Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).pipe(
      Schema.maxItems(WHATS_INCLUDED_MAX, { message: () => `whats_included holds up to ${WHATS_INCLUDED_MAX} lines` })
    )
  ).annotations({ description: "Up to 12 lines of 1 to 200 characters; null restores the default lines." }),
  sections: Schema.NullOr(Sections),
  answer_within_days: Schema.NullOr(
    Schema.Int.pipe(Schema.between(ANSWER_WITHIN_DAYS_MIN, ANSWER_WITHIN_DAYS_MAX))
  ).annotations({
    description: `Paid-question products only: days (${ANSWER_WITHIN_DAYS_MIN} to ${ANSWER_WITHIN_DAYS_MAX}) the seller takes to answer; sets each question's answer_due_at.`
  })
})
export type ProductFields = typeof ProductFields.Type

/** Field names a seller may set. */
export type ProductFieldName = keyof ProductFields

/** The fields of `ProductChanges`: every product field optional, `null` allowed. */
export const productChangeFields = Object.fromEntries(
  Object.entries(ProductFields.fields).map(([name, schema]) => [name, Schema.optional(Schema.NullOr(schema))])
) as {
  readonly [K in ProductFieldName]: Schema.optional<Schema.NullOr<(typeof ProductFields.fields)[K]>>
}

/** Changes to a product: a field left out is kept, `null` clears it (restores its default). */
export const ProductChanges = Schema.Struct(productChangeFields)
export type ProductChanges = typeof ProductChanges.Type

/**
 * What a product sells: a Custom AI (or course), a bundle of other products of the store, or the seller's answer to
 * a question the buyer asks at checkout.
 */
export type ProductKind = "custom_ai" | "bundle" | "question"

/** A stored product: its fields plus identity and state. */
export interface Product {
  readonly id: string
  readonly workspaceId: string
  readonly kind: ProductKind
  /** The Custom AI it sells; null for a bundle or a paid question. */
  readonly customAiId: string | null
  readonly status: ProductStatus
  readonly fields: ProductFields
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly publishedAt: Date | null
}

/** The lines `whats_included` shows while the seller has not written their own. */
export const defaultWhatsIncluded = (fields: ProductFields): ReadonlyArray<string> =>
  fields.answer_within_days !== null
    ? [
        "A personal answer to your question",
        `Answered within ${fields.answer_within_days} day${fields.answer_within_days === 1 ? "" : "s"}`
      ]
    : [
        ...(fields.chat_enabled ? ["Unlimited chat with the AI assistant"] : ["The full course, at your own pace"]),
        ...(fields.included_credits > 0 ? [`${fields.included_credits} AI credits included`] : []),
        ...(fields.billing === "one-time" ? ["Lifetime access"] : ["Cancel any time"]),
        ...(fields.welcome_markdown !== null ? ["A Start here guide"] : [])
      ]

/** Lower-case, dash-separated, at most 60 characters; `product` when nothing usable is left. */
export const slugify = (title: string): string =>
  title
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "") || "product"

/** The fields of a new product for a Custom AI called `name`. */
export const defaultProductFields = (name: string, chatEnabled: boolean): ProductFields => ({
  title: name.slice(0, 200),
  slug: slugify(name),
  tagline: null,
  headline: null,
  subheadline: null,
  price_cents: 0,
  billing: "one-time",
  yearly_price_cents: null,
  compare_at_cents: null,
  trial_days: null,
  payment_plan: null,
  quantity_limit: null,
  quantity_show_left: false,
  quantity_waitlist: false,
  waitlist_mode: false,
  waitlist_opens_at: null,
  included_credits: 0,
  chat_enabled: chatEnabled,
  checkout_mode: "svc",
  checkout_url: null,
  body_markdown: null,
  faq_markdown: null,
  creator_bio: null,
  refund_policy: null,
  welcome_markdown: null,
  hero_image_url: null,
  video_url: null,
  theme: null,
  accent: null,
  cta_label: null,
  sign_off: null,
  whats_included: null,
  sections: null,
  answer_within_days: null
})

/** The fields of a new paid-question product: one-time, on the service's checkout, with no AI of its own. */
export const questionDefaultFields = (): ProductFields => ({
  ...defaultProductFields("Ask me a question", false),
  answer_within_days: ANSWER_WITHIN_DAYS_DEFAULT
})
