import { Option } from "effect"
import type { Figure, SellerOverview, Span } from "./seller-overview.js"

// The seller overview as svc_get_seller_overview answers it (snake_case figures, ISO times).

const spanJson = (span: Span) => ({ from: span.from.toISOString(), to: span.to.toISOString() })

const figureJson = (figure: Figure) => ({
  value: figure.value,
  previous: figure.previous,
  change_pct: Option.getOrNull(figure.changePct)
})

/** The overview with its figures, top products and latest events. */
export const overviewJson = (overview: SellerOverview) => ({
  period: spanJson(overview.period),
  previous: spanJson(overview.previous),
  figures: {
    revenue_cents: figureJson(overview.figures.revenueCents),
    sales: figureJson(overview.figures.sales),
    refunds: figureJson(overview.figures.refunds),
    refunded_cents: figureJson(overview.figures.refundedCents),
    net_revenue_cents: figureJson(overview.figures.netRevenueCents),
    new_customers: figureJson(overview.figures.newCustomers),
    active_memberships: figureJson(overview.figures.activeMemberships)
  },
  top_products: overview.topProducts.map((p) => ({
    product_id: p.productId,
    product_title: p.productTitle,
    sales: p.sales,
    revenue_cents: p.revenueCents
  })),
  latest_events: overview.latestEvents.map((e) => ({
    id: e.id,
    type: e.type,
    created_at: e.createdAt.toISOString(),
    summary: e.summary
  }))
})
