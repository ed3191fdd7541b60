import { creationKey, pageAnswer } from "../../shared/list-query.js"
import type { Page, PageRequest } from "../../shared/paging.js"
import { STORE_CURRENCY } from "../sales/sale.js"
import type { DescribedAffiliate, DescribedProgram } from "./affiliates.js"
import type { AffiliateProgramRow, AffiliateRow } from "./affiliate-api.js"
import type { PayoutTotals } from "./ports.js"

/** An affiliate as the store API answers it. */
export const affiliateJson = ({ affiliate, productTitle, link }: DescribedAffiliate): typeof AffiliateRow.Type => ({
  affiliate_id: affiliate.id,
  product_id: affiliate.productId,
  product_title: productTitle,
  email: affiliate.email,
  name: affiliate.name,
  code: affiliate.code,
  status: affiliate.status,
  link,
  created_at: affiliate.createdAt.toISOString(),
  note: affiliate.note,
  decided_at: affiliate.decidedAt === null ? null : affiliate.decidedAt.toISOString()
})

/** A page of affiliates, as `GET /affiliates` answers it. */
export const affiliatePageJson = (page: Page<DescribedAffiliate>, request: PageRequest) =>
  pageAnswer(page, affiliateJson, request, (described) => creationKey(described.affiliate))

/** A product's program as the store API answers it. */
export const affiliateProgramJson = ({ program, applyUrl }: DescribedProgram): typeof AffiliateProgramRow.Type => ({
  product_id: program.productId,
  commission_kind: program.commissionKind,
  commission_value: program.commissionValue,
  cookie_days: program.cookieDays,
  approval: program.approval,
  active: program.active,
  apply_url: applyUrl,
  updated_at: program.updatedAt.toISOString()
})

/** A payout report, as `GET /affiliates/<id>/payouts` answers it. */
export const affiliatePayoutJson = (
  period: { readonly affiliate: DescribedAffiliate; readonly from: Date; readonly to: Date } & PayoutTotals
) => ({
  ok: true as const,
  affiliate: affiliateJson(period.affiliate),
  from: period.from.toISOString(),
  to: period.to.toISOString(),
  sales: period.sales,
  amount_cents: period.amountCents,
  commission_cents: period.commissionCents,
  reversed_cents: period.reversedCents,
  test_commission_cents: period.testCommissionCents,
  currency: STORE_CURRENCY
})
