import { FieldProblem, InvalidInput } from "../../shared/errors.js"
import { isCalendarDay } from "../../shared/time.js"
import {
  MAX_PRICE_CENTS,
  MIN_PRICE_CENTS,
  type ProductChanges,
  type ProductFields,
  type ProductKind
} from "./product.js"

/** A store's settings: what the publish checks read, and whether buyers join the email list. */
export interface StoreSettings {
  readonly workspaceId: string
  readonly supportEmail: string | null
  readonly cardProcessor: "connected" | "none"
  /** Whether a buyer (a sale or a free grant) joins the email list as a subscribed contact; on by default. */
  readonly emailListAddBuyers: boolean
  /** Whether a public sign-up is subscribed only after confirming by email (read by the sign-up page); off by default. */
  readonly emailDoubleOptIn: boolean
}

/** One thing left to do before a product can go live. */
export interface ChecklistItem {
  readonly item: "support_email" | "payment" | "checkout_url"
  readonly message: string
}

const isWebAddress = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.length > 0
  } catch {
    return false
  }
}

/** Applies changes to fields: a field left out is kept, `null` restores the default of a new product. */
export const applyChanges = (
  fields: ProductFields,
  changes: ProductChanges,
  defaults: ProductFields
): ProductFields => {
  const next: Record<string, unknown> = { ...fields }
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) continue
    next[name] = value === null ? defaults[name as keyof ProductFields] : value
  }
  return next as unknown as ProductFields
}

/**
 * The rules between fields (the schema checks each field alone) and between the fields and the product's kind;
 * fails with every broken rule at once.
 */
export const checkProductFields = (fields: ProductFields, kind: ProductKind): InvalidInput | undefined => {
  const problems: Array<FieldProblem> = []
  const problem = (path: string, message: string) => problems.push(new FieldProblem({ path, message }))
  const paidAmount = (path: string, cents: number | null) => {
    if (cents !== null && cents > 0 && cents < MIN_PRICE_CENTS) {
      problem(path, `${path} must be 0 (free) or at least ${MIN_PRICE_CENTS} cents`)
    }
  }
  const atMostMax = (path: string, cents: number | null) => {
    if (cents !== null && cents > MAX_PRICE_CENTS) {
      problem(path, `${path} must be at most ${MAX_PRICE_CENTS} cents ($999,999.99)`)
    }
  }
  paidAmount("price_cents", fields.price_cents)
  atMostMax("price_cents", fields.price_cents)
  const membership = fields.billing !== "one-time"
  if (fields.yearly_price_cents !== null) {
    if (fields.billing !== "monthly") problem("yearly_price_cents", "a yearly price needs billing monthly")
    else if (fields.yearly_price_cents < MIN_PRICE_CENTS) {
      problem("yearly_price_cents", `yearly_price_cents must be at least ${MIN_PRICE_CENTS} cents`)
    } else atMostMax("yearly_price_cents", fields.yearly_price_cents)
  }
  atMostMax("compare_at_cents", fields.compare_at_cents)
  if (fields.trial_days !== null && !membership) problem("trial_days", "trial days need billing monthly or yearly")
  if (fields.payment_plan !== null) {
    if (membership || fields.price_cents === 0) {
      problem("payment_plan", "a payment plan needs a paid product with billing one-time")
    } else if (fields.payment_plan.amount_cents < MIN_PRICE_CENTS) {
      problem("payment_plan.amount_cents", `each part must be at least ${MIN_PRICE_CENTS} cents`)
    } else atMostMax("payment_plan.amount_cents", fields.payment_plan.amount_cents)
  }
  if (fields.waitlist_opens_at !== null && !isCalendarDay(fields.waitlist_opens_at)) {
    problem("waitlist_opens_at", "waitlist_opens_at must be a real day, YYYY-MM-DD")
  }
  for (const name of ["checkout_url", "hero_image_url", "video_url"] as const) {
    const value = fields[name]
    if (value !== null && !isWebAddress(value)) problem(name, `${name} must be an http or https address`)
  }
  if ((fields.quantity_show_left || fields.quantity_waitlist) && fields.quantity_limit === null) {
    problem("quantity_limit", "quantity_show_left and quantity_waitlist need a quantity_limit")
  }
  if (kind === "question") {
    // The buyer asks at the service's checkout, once per payment: nothing else can take the question.
    if (membership) problem("billing", "a paid question is billed one-time")
    if (fields.payment_plan !== null) problem("payment_plan", "a paid question is paid at once, not in parts")
    if (fields.checkout_mode !== "svc") {
      problem("checkout_mode", "a paid question is sold on the service's checkout (svc), where the buyer asks it")
    }
    if (fields.answer_within_days === null) problem("answer_within_days", "a paid question needs answer_within_days")
  } else if (fields.answer_within_days !== null) {
    problem("answer_within_days", "answer_within_days is for paid-question products only")
  }
  return problems.length === 0
    ? undefined
    : new InvalidInput({ message: problems.map((p) => p.message).join("; "), errors: problems })
}

/** The route that changes the store's settings, which the checklist names. */
export const SETTINGS_ROUTE = "PATCH /store-app/v1/settings"
/** The store API route that connects a store's Stripe account. */
export const STRIPE_ROUTE = "PUT /store-app/v1/settings/stripe"

/**
 * The store API's message of each checklist item (the store tools say their own: tool-support.ts); `payment_svc` is
 * the `payment` item of a product that only the service's checkout may sell (a paid question), with no own checkout
 * to offer instead.
 */
export type ChecklistMessages = { readonly [Item in ChecklistItem["item"] | "payment_svc"]: string }

/** The checklist's messages, naming the route and the owner's settings page (`settingsPage`) that fix each item. */
export const checklistMessages = (settingsPage: string): ChecklistMessages => ({
  support_email: `set the store's support email: ${SETTINGS_ROUTE} with support_email, or the owner on ${settingsPage}`,
  checkout_url: "checkout_mode external needs checkout_url, your own checkout link",
  payment: `a paid product needs a connected card processor (${STRIPE_ROUTE} to take payments on Stripe, or ${SETTINGS_ROUTE} with card_processor for the built-in test processor, or the owner on ${settingsPage}), or checkout_mode external with checkout_url`,
  payment_svc: `a paid question needs a connected card processor (${STRIPE_ROUTE} to take payments on Stripe, or ${SETTINGS_ROUTE} with card_processor for the built-in test processor, or the owner on ${settingsPage})`
})

/** What remains before the product can go live, worded by `messages`; empty when it can. */
export const publishChecklist = (
  fields: ProductFields,
  settings: StoreSettings,
  messages: ChecklistMessages
): ReadonlyArray<ChecklistItem> => {
  const items: Array<ChecklistItem> = []
  if (settings.supportEmail === null) {
    items.push({ item: "support_email", message: messages.support_email })
  }
  if (fields.checkout_mode === "external" && fields.checkout_url === null) {
    items.push({ item: "checkout_url", message: messages.checkout_url })
  }
  const paid = fields.price_cents > 0
  const ownCheckout = fields.checkout_mode === "external" && fields.checkout_url !== null
  if (paid && !fields.waitlist_mode && !ownCheckout && settings.cardProcessor !== "connected") {
    // Only paid questions carry answer_within_days, and only the service's checkout may sell them.
    items.push({
      item: "payment",
      message: fields.answer_within_days === null ? messages.payment : messages.payment_svc
    })
  }
  return items
}
