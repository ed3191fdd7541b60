import { Effect, Option } from "effect"
import { makeEventRecorder } from "../../events/service.js"
import { invalid } from "../../shared/errors.js"
import { Ids } from "../../shared/ports.js"
import type { Product } from "../catalog/product.js"
import type { Sale } from "../sales/sale.js"
import { saleJson } from "../sales/sale-json.js"
import { type Affiliate, type AffiliateProgram, type Commission, commissionOf, normalCode } from "./affiliate.js"
import { AffiliatesRepo } from "./ports.js"

/** A membership's renewal payment, as the commissions read it. */
export interface RenewalPayment {
  readonly product: Product
  readonly subscriptionId: string | null
  readonly orderId: string | null
  readonly amountCents: number
  readonly now: Date
}

/**
 * Commissions, written in the sale's own transaction by `StoreSales`: a sale whose buyer came through an affiliate's
 * link (`?via=<code>`, kept on the sale) earns the affiliate their commission, and so does each renewal of that
 * membership; a refund takes back every commission of the sale. Each is one `affiliate_sale.created`, and the New
 * Affiliate Sale feed leaves out those taken back.
 */
export const makeAffiliateCommissions = Effect.gen(function* () {
  const repo = yield* AffiliatesRepo
  const ids = yield* Ids
  const recordEvent = yield* makeEventRecorder

  /** The affiliate behind a code and their product's program, while both are on. */
  const earning = (workspaceId: string, productId: string, find: Effect.Effect<Option.Option<Affiliate>>) =>
    Effect.gen(function* () {
      const affiliate = yield* find
      if (Option.isNone(affiliate) || affiliate.value.status !== "active") return Option.none()
      if (affiliate.value.productId !== productId) return Option.none()
      const program = yield* repo.findProgram(workspaceId, productId)
      if (Option.isNone(program) || !program.value.active) return Option.none()
      return Option.some({ affiliate: affiliate.value, program: program.value })
    })

  const record = (
    earned: { readonly affiliate: Affiliate; readonly program: AffiliateProgram },
    sale: Sale,
    payment: { readonly kind: "first" | "renewal"; readonly amountCents: number; readonly orderId: string | null },
    key: string,
    now: Date
  ) =>
    Effect.gen(function* () {
      const commissionCents = commissionOf(earned.program, payment.amountCents)
      if (commissionCents <= 0) return
      const commission: Commission = {
        id: yield* ids.make("com_"),
        workspaceId: sale.workspaceId,
        affiliateId: earned.affiliate.id,
        productId: sale.productId,
        saleId: sale.id,
        subscriptionId: sale.subscriptionId,
        payment: payment.kind,
        amountCents: payment.amountCents,
        commissionCents,
        currency: sale.currency,
        test: sale.test,
        createdAt: now,
        reversedAt: null
      }
      if (!(yield* repo.insertCommission(commission, key))) return
      yield* recordEvent(sale.workspaceId, "affiliate_sale.created", {
        ...saleJson({ ...sale, amountCents: payment.amountCents, orderId: payment.orderId, createdAt: now }),
        commission_id: commission.id,
        affiliate_id: earned.affiliate.id,
        affiliate_email: earned.affiliate.email,
        payment: payment.kind,
        commission_cents: commissionCents,
        commission: commissionCents / 100
      })
    })

  /** A new sale's commission, when its buyer came through an active affiliate's link of the product. */
  const creditSale = (sale: Sale) =>
    Effect.gen(function* () {
      const code = sale.attribution.affiliate
      if (code === null || sale.amountCents <= 0) return
      const earned = yield* earning(
        sale.workspaceId,
        sale.productId,
        repo.findByCode(sale.workspaceId, normalCode(code))
      )
      if (Option.isNone(earned)) return
      yield* record(
        earned.value,
        sale,
        { kind: "first", amountCents: sale.amountCents, orderId: sale.orderId },
        `sale:${sale.id}`,
        sale.createdAt
      )
    })

  /** A renewal's commission, for the affiliate whose link brought the membership's first sale. */
  const creditRenewal = (renewal: RenewalPayment, saleOf: (saleId: string) => Effect.Effect<Option.Option<Sale>>) =>
    Effect.gen(function* () {
      const { product, subscriptionId } = renewal
      if (subscriptionId === null || renewal.amountCents <= 0) return
      const first = yield* repo.firstOfSubscription(product.workspaceId, product.id, subscriptionId)
      if (Option.isNone(first)) return
      const sale = yield* saleOf(first.value.saleId)
      if (Option.isNone(sale) || sale.value.status === "refunded") return
      const earned = yield* earning(
        product.workspaceId,
        product.id,
        repo.findAffiliate(product.workspaceId, first.value.affiliateId)
      )
      if (Option.isNone(earned)) return
      yield* record(
        earned.value,
        sale.value,
        { kind: "renewal", amountCents: renewal.amountCents, orderId: renewal.orderId },
        `renewal:${subscriptionId}:${renewal.orderId ?? renewal.now.toISOString()}`,
        renewal.now
      )
    })

  /**
   * The code of an active affiliate of `product` (program on), as an own checkout reports it with a sale; `invalid`
   * at `affiliate` for a code of another product or store, an unknown one, or one that earns nothing now.
   */
  const checkedCode = (product: Product, code: string) =>
    Effect.flatMap(
      earning(product.workspaceId, product.id, repo.findByCode(product.workspaceId, normalCode(code))),
      (earned) =>
        Option.isSome(earned)
          ? Effect.succeed(earned.value.affiliate.code)
          : Effect.fail(
              invalid("affiliate", `no active affiliate of ${product.id} in this store has the code ${code.trim()}`)
            )
    )

  /** Takes back every commission of a refunded sale (its renewals' too). */
  const reverseSale = (sale: Sale, now: Date) => repo.reverseSale(sale.workspaceId, sale.id, now)

  return { creditSale, creditRenewal, reverseSale, checkedCode } as const
})
