import { creationKey, pageAnswer } from "../../shared/list-query.js"
import type { Page, PageRequest } from "../../shared/paging.js"
import { type DiscountCode, discountRefusal } from "./discount-code.js"
import type { DiscountCodeRow } from "./discount-codes-api.js"

// The store API's wire form of discount codes (snake_case, ISO times). Two things of the answer are not the code's:
// its checkout link, on the server's public address, which the core cannot know, and whether it works, which depends
// on the time of the answer. A face hands both in.

/** What a code's answer needs besides the code: the server's public base URL and the time of the answer. */
export interface DiscountCodeContext {
  /** The public base URL, no trailing slash (`https://svc.example.com`). */
  readonly publicBase: string
  readonly now: Date
}

/** The product's checkout page with the code filled in. */
export const discountCheckoutUrl = (publicBase: string, code: Pick<DiscountCode, "productId" | "code">) =>
  `${publicBase}/c/${encodeURIComponent(code.productId)}?code=${encodeURIComponent(code.code)}`

/** A code as the store API answers it (`DiscountCodeRow`). */
export const discountCodeJson = (code: DiscountCode, context: DiscountCodeContext): typeof DiscountCodeRow.Type => ({
  id: code.id,
  product_id: code.productId,
  code: code.code,
  kind: code.kind,
  value: code.kind === "percent" ? (code.percentOff ?? 0) : (code.amountOffCents ?? 0) / 100,
  percent_off: code.percentOff,
  amount_off_cents: code.amountOffCents,
  max_uses: code.maxUses,
  uses: code.uses,
  uses_left: code.maxUses === null ? null : Math.max(0, code.maxUses - code.uses),
  expires_at: code.expiresAt === null ? null : code.expiresAt.toISOString(),
  active: discountRefusal(code, code.productId, context.now) === undefined,
  disabled_at: code.disabledAt === null ? null : code.disabledAt.toISOString(),
  created_at: code.createdAt.toISOString(),
  checkout_url: discountCheckoutUrl(context.publicBase, code)
})

/** The answer of `POST /discount-codes`: the code, with its code and checkout link at the top too. */
export const discountCodeCreatedJson = (code: DiscountCode, context: DiscountCodeContext) => {
  const json = discountCodeJson(code, context)
  return {
    ok: true as const,
    discount_code: json,
    code: json.code,
    checkout_url: json.checkout_url
  }
}

/** The answer of `GET /discount-codes/<id>` and `POST /discount-codes/<id>/disable`. */
export const discountCodeApiAnswer = (code: DiscountCode, context: DiscountCodeContext) => ({
  ok: true as const,
  discount_code: discountCodeJson(code, context)
})

/** A page of codes, as `GET /discount-codes` answers it. */
export const discountCodePageJson =
  (context: DiscountCodeContext) => (page: Page<DiscountCode>, request: PageRequest) =>
    pageAnswer(page, (code) => discountCodeJson(code, context), request, creationKey)
