import type { ChecklistItemRow } from "../api-rows.js"
import { SETTINGS_ROUTE, STRIPE_ROUTE } from "./product-rules.js"

/** One item of a product's publish checklist, as the store services answer it. */
type ChecklistEntry = typeof ChecklistItemRow.Type

// What an agent can do about each item, and who else can: no tool changes the store's settings, so the support email
// and the card processor are for the store's owner (signed in, on the settings page) or a developer holding a store
// API key, never for the agent itself.
/** What each item asks of an agent, worded for the settings page at `settingsPage`. */
export const agentStepsOn = (
  settingsPage: string
): Record<ChecklistEntry["item"] | "payment_svc", (message: string) => string> => {
  const others = `the store's owner signed in on ${settingsPage}, or a developer with a store API key (Store: Edit) through ${SETTINGS_ROUTE}`
  const processor = `a connected card processor, which no tool sets: ask ${others} with card_processor (the built-in test processor), or to connect Stripe (${STRIPE_ROUTE}).`
  return {
    support_email: () => `No tool sets the store's support email: ask ${others} with support_email.`,
    payment: () =>
      `A paid product needs ${processor} Or sell through your own checkout: fields.checkout_mode external with fields.checkout_url.`,
    // A paid question is asked on the service's checkout: no own checkout can sell it.
    payment_svc: () => `A paid question needs ${processor}`,
    checkout_url: () =>
      "Set fields.checkout_url to your own checkout link (http or https), or fields.checkout_mode svc.",
    bundle_products: (message) => `${message} (svc_publish_custom_ai_product, live: true).`
  }
}
