import { Option } from "effect"
import { type NextStepWords, withNextStep } from "../../shared/next-step.js"
import type { Page, PageRequest } from "../../shared/paging.js"
import { creationKey, pageAnswer } from "../../shared/list-query.js"
import type { Sale } from "./sale.js"
import type { SaleOutcome } from "./sale-outcome.js"

// The store API's wire form of sales (snake_case, ISO times), which the sales tool, GraphQL and the sale events
// answer too.

/** A sale as the store API and its feeds answer it. */
export const saleJson = (sale: Sale) => ({
  id: sale.id,
  product_id: sale.productId,
  product_title: sale.productTitle,
  buyer_email: sale.buyerEmail,
  buyer_name: sale.buyerName,
  amount: sale.amountCents / 100,
  amount_cents: sale.amountCents,
  currency: sale.currency,
  billing: sale.billing,
  source: sale.source,
  order_id: sale.orderId,
  discount_code: sale.discountCode,
  // Taken from the link a buyer of the service's checkout used; an own checkout never tells us.
  utm_source: sale.attribution.utmSource,
  utm_medium: sale.attribution.utmMedium,
  utm_campaign: sale.attribution.utmCampaign,
  utm_content: sale.attribution.utmContent,
  utm_term: sale.attribution.utmTerm,
  fbclid: sale.attribution.fbclid,
  referrer: sale.attribution.referrer,
  status: sale.status,
  test: sale.test,
  created_at: sale.createdAt.toISOString()
})

/** A page of sale rows, as `GET /sales` answers it. */
export const salePageJson = (page: Page<Sale>, request: PageRequest) => pageAnswer(page, saleJson, request, creationKey)

/** One sale, as `GET /sales/<id>` answers it. */
export const saleApiAnswer = (sale: Sale) => ({ ok: true as const, sale: saleJson(sale) })

/**
 * What a sale event came to, as `POST /sales` answers it: `ok` with the status, or `ok: false` when turned away,
 * its next step said in the face's `words`.
 */
export const saleAnswerJson = (outcome: SaleOutcome, words: NextStepWords) =>
  outcome.status === "rejected"
    ? {
        ok: false as const,
        status: outcome.status,
        reason: outcome.reason,
        message: withNextStep(words, outcome.message, outcome.next),
        ...Option.match(outcome.waitlisted, { onNone: () => ({}), onSome: (waitlisted) => ({ waitlisted }) })
      }
    : { ok: true as const, status: outcome.status }
