import type { Billing } from "../catalog/product.js"
import type { Attribution } from "../sales/sale.js"
import type { PriceChoice } from "./price-options.js"

/**
 * A store's live card processor account (Stripe), its keys sealed with the server key: the secret key opens payment
 * pages and refunds, the webhook secret checks the processor's events.
 */
export interface ProcessorAccount {
  readonly workspaceId: string
  readonly processor: "stripe"
  /**
   * `key`: the seller gave their own secret key and webhook secret (both sealed here). `connect`: the seller
   * authorized the server's platform (Stripe Connect), whose key and webhook secret the server's settings hold.
   */
  readonly via: "key" | "connect"
  readonly accountId: string
  /** Whether the account moves real money or is the processor's own test mode. */
  readonly livemode: boolean
  /** Null with `via: "connect"`. */
  readonly secretKeySealed: string | null
  readonly webhookSecretSealed: string | null
  readonly connectedAt: Date
}

/**
 * One buyer's trip to the live processor's payment page, written before the page opens: what they picked, so the
 * processor's completion event sells exactly that, and the discount code's use, held until the page completes or
 * expires. Keyed by the checkout attempt, so a form sent twice opens one page.
 */
export interface HostedCheckout {
  readonly attempt: string
  readonly workspaceId: string
  readonly productId: string
  readonly choice: PriceChoice
  readonly billing: Billing
  /** What is due now, after the code: the sale's amount (0 with a trial). */
  readonly amountCents: number
  /** A membership's or a plan's later charge, in full; null for a one-time price. */
  readonly recurringCents: number | null
  readonly periodMonths: number | null
  /** A membership's free days before its first charge; null without. */
  readonly trialDays: number | null
  /** A payment plan's number of parts; null otherwise. */
  readonly parts: number | null
  readonly email: string
  readonly name: string | null
  readonly discountCodeId: string | null
  readonly discountCode: string | null
  readonly attribution: Attribution
  /** A paid question's text, asked before the payment page; null for other products. */
  readonly question: string | null
  /**
   * `opening` while the page is asked for; `open` once it is; `completed` once sold (or refunded because the product
   * sold out meanwhile); `expired` when the buyer never paid (the code's use is given back); `failed` when the
   * processor would not open it.
   */
  readonly state: "opening" | "open" | "completed" | "expired" | "failed"
  readonly sessionId: string | null
  readonly url: string | null
  readonly subscriptionId: string | null
  readonly paymentId: string | null
  /** The sale it made, once completed. */
  readonly saleId: string | null
  readonly createdAt: Date
  readonly expiresAt: Date
}

/** What the store shows of its live processor: never the keys. */
export interface ProcessorStatus {
  readonly processor: "stripe"
  readonly via: "key" | "connect"
  readonly accountId: string
  readonly livemode: boolean
  readonly connectedAt: Date
  /** Where the processor must send its events: the seller adds this endpoint at the processor. */
  readonly webhookUrl: string
}

/** The path of the platform's Connect webhook, for every connected account, under the server's public address. */
export const STRIPE_CONNECT_WEBHOOK_PATH = "/stripe/connect/webhooks"

/** The path of a store's processor webhook, under the server's public address. */
export const stripeWebhookPath = (workspaceId: string) => `/stripe/webhooks/${encodeURIComponent(workspaceId)}`

/** The store's processor account as its settings show it, with its webhook address under `publicBase`. */
export const processorStatusOf = (account: ProcessorAccount, publicBase: string): ProcessorStatus => ({
  processor: account.processor,
  via: account.via,
  accountId: account.accountId,
  livemode: account.livemode,
  connectedAt: account.connectedAt,
  webhookUrl: `${publicBase}${account.via === "connect" ? STRIPE_CONNECT_WEBHOOK_PATH : stripeWebhookPath(account.workspaceId)}`
})
