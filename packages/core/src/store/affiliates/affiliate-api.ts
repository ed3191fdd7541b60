import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { listQueryFields, PageOf, strict } from "../../shared/list-wire.js"
import { SaleRow } from "../api-rows.js"
import { AFFILIATE_NOTE_MAX, COMMISSION_PERCENT_MAX, COOKIE_DAYS_MAX } from "./affiliate.js"

const iso = Schema.String.annotations({ description: "ISO 8601 timestamp, UTC." })
const nullableString = Schema.NullOr(Schema.String)
const productFilter = Schema.optional(Schema.String).annotations({ description: "Only this product's." })
const CommissionKindField = Schema.Literal("percent", "fixed").annotations({
  description: "percent: a share of each payment; fixed: an amount in cents per payment (never above it)."
})

/** A product's affiliate program as the store API answers it. */
export const AffiliateProgramRow = Schema.Struct({
  product_id: Schema.String,
  commission_kind: CommissionKindField,
  commission_value: Schema.Int.annotations({ description: "The percent (1 to 90), or cents with fixed." }),
  cookie_days: Schema.Int.annotations({ description: "How long a link's cookie counts a later purchase, in days." }),
  approval: Schema.Boolean.annotations({ description: "Applicants wait for the seller's accept." }),
  active: Schema.Boolean.annotations({ description: "false: no new sale earns, nobody may apply." }),
  apply_url: nullableString.annotations({ description: "Where people apply; null while the store has no handle." }),
  updated_at: iso
}).annotations({ identifier: "AffiliateProgramRow", description: "A product's affiliate program." })

/** What `affiliate.created` and `affiliate_application.created` say, and an affiliate row besides its decision. */
export const affiliateFields = {
  affiliate_id: Schema.String.annotations({ description: "The affiliate's id (aff_…)." }),
  product_id: Schema.String,
  product_title: Schema.String,
  email: Schema.String,
  name: nullableString,
  code: Schema.String.annotations({ description: "Their code: the link is /c/<product>?via=<code>." }),
  status: Schema.Literal("pending", "active", "declined", "removed"),
  link: Schema.String.annotations({ description: "The link they share." }),
  created_at: iso
}

/** An affiliate as the store API answers it. */
export const AffiliateRow = Schema.Struct({
  ...affiliateFields,
  note: nullableString.annotations({ description: "What they wrote when applying." }),
  decided_at: Schema.NullOr(iso).annotations({ description: "When the seller accepted, declined or removed them." })
}).annotations({ identifier: "AffiliateRow", description: "A person promoting a product with their own link." })

/** A row of `GET /affiliates/recent`: a new active affiliate. */
export const AffiliateFeedRow = Schema.Struct({
  id: Schema.String.annotations({ description: "The event's id (evt_…)." }),
  ...affiliateFields
}).annotations({ identifier: "AffiliateFeedRow", description: "A new affiliate, active." })

/** A row of `GET /affiliates/applications`: a person who applied. */
export const AffiliateApplicationFeedRow = Schema.Struct({
  id: Schema.String.annotations({ description: "The event's id (evt_…)." }),
  ...affiliateFields,
  note: nullableString
}).annotations({ identifier: "AffiliateApplicationFeedRow", description: "An affiliate application." })

/** What `affiliate_sale.created` and a New Affiliate Sale row say: the sale, with the affiliate's commission. */
export const affiliateSaleFields = {
  ...SaleRow.fields,
  commission_id: Schema.String.annotations({ description: "The commission's id (com_…)." }),
  affiliate_id: Schema.String,
  affiliate_email: Schema.String,
  payment: Schema.Literal("first", "renewal").annotations({ description: "The sale itself, or a renewal of it." }),
  commission_cents: Schema.Int,
  commission: Schema.Number.annotations({ description: "Major currency units." })
}

/** A row of `GET /affiliates/sales`: the event's data, its id the event's (a renewal shares its sale's id). */
export const AffiliateSaleFeedRow = Schema.Struct({
  ...affiliateSaleFields,
  id: Schema.String.annotations({ description: "The event's id (evt_…): one per sale and per renewal." }),
  sale_id: Schema.String.annotations({ description: "The sale (purchase:…); a renewal's is its membership's sale." })
}).annotations({
  identifier: "AffiliateSaleFeedRow",
  description: "A sale or renewal an affiliate brought, with their commission; refunded ones left out."
})

/** `GET /affiliates/<id>/payouts`: what an affiliate earned in a period. */
export const AffiliatePayoutAnswer = Schema.Struct({
  ok: Schema.Literal(true),
  affiliate: AffiliateRow,
  from: iso,
  to: iso,
  sales: Schema.Int.annotations({ description: "Payments they brought that were not refunded." }),
  amount_cents: Schema.Int,
  commission_cents: Schema.Int.annotations({ description: "What is owed for the period." }),
  reversed_cents: Schema.Int.annotations({ description: "Commissions of sales refunded since: not owed." }),
  test_commission_cents: Schema.Int.annotations({
    description: "Commissions of test sales (the test checkout), not counted above: nothing is owed for them."
  }),
  currency: Schema.String
})

const idPath = Schema.Struct({ id: Schema.String.annotations({ description: "The affiliate's id (aff_…)." }) })
const productPath = Schema.Struct({ id: Schema.String.annotations({ description: "The product's id." }) })

/** The answer of one affiliate. */
export const AffiliateAnswer = Schema.Struct({ ok: Schema.Literal(true), affiliate: AffiliateRow })
/** The answer of one program; null while the product has none. */
export const AffiliateProgramAnswer = Schema.Struct({
  ok: Schema.Literal(true),
  program: Schema.NullOr(AffiliateProgramRow)
})

/** The store API's affiliates: programs, affiliates and their decisions, payouts, and the three feeds. */
export const AffiliatesApiGroup = HttpApiGroup.make("affiliates")
  .add(
    HttpApiEndpoint.get("program", "/products/:id/affiliate-program")
      .setPath(productPath)
      .addSuccess(AffiliateProgramAnswer)
      .annotate(OpenApi.Summary, "Get a product's affiliate program")
  )
  .add(
    HttpApiEndpoint.put("setProgram", "/products/:id/affiliate-program")
      .setPath(productPath)
      .setPayload(
        Schema.Struct({
          commission_kind: Schema.optional(CommissionKindField),
          commission_value: Schema.optional(Schema.Int).annotations({
            description: `1 to ${COMMISSION_PERCENT_MAX} (percent), or cents (fixed).`
          }),
          cookie_days: Schema.optional(Schema.Int).annotations({ description: `1 to ${COOKIE_DAYS_MAX}; default 30.` }),
          approval: Schema.optional(Schema.Boolean).annotations({ description: "Default true." }),
          active: Schema.optional(Schema.Boolean).annotations({ description: "Default true." })
        }).annotations(strict)
      )
      .addSuccess(AffiliateProgramAnswer)
      .annotate(OpenApi.Summary, "Set a product's affiliate program")
      .annotate(
        OpenApi.Description,
        "Creates or changes the program; a field left out keeps its value. A new program needs commission_kind and commission_value. 422 names each broken rule."
      )
  )
  .add(
    HttpApiEndpoint.get("recent", "/affiliates/recent")
      .setUrlParams(Schema.Struct({ product: productFilter }).annotations(strict))
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), affiliates: Schema.Array(AffiliateFeedRow) }))
      .annotate(OpenApi.Summary, "New Affiliate feed")
      .annotate(OpenApi.Description, "Affiliates who became active in the last 30 days, newest first, up to 50.")
  )
  .add(
    HttpApiEndpoint.get("applications", "/affiliates/applications")
      .setUrlParams(Schema.Struct({ product: productFilter }).annotations(strict))
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), applications: Schema.Array(AffiliateApplicationFeedRow) }))
      .annotate(OpenApi.Summary, "New Affiliate Application feed")
      .annotate(OpenApi.Description, "People who applied in the last 30 days, newest first, up to 50.")
  )
  .add(
    HttpApiEndpoint.get("sales", "/affiliates/sales")
      .setUrlParams(Schema.Struct({ product: productFilter }).annotations(strict))
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), sales: Schema.Array(AffiliateSaleFeedRow) }))
      .annotate(OpenApi.Summary, "New Affiliate Sale feed")
      .annotate(
        OpenApi.Description,
        "One row per sale or renewal an affiliate brought in the last 30 days, with the commission, newest first, up to 50; refunded sales drop out. Sales at the test checkout are listed with test true."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/affiliates")
      .setUrlParams(
        Schema.Struct({
          ...listQueryFields,
          product: productFilter,
          status: Schema.optional(Schema.String).annotations({ description: "pending, active, declined or removed." })
        }).annotations(strict)
      )
      .addSuccess(PageOf(AffiliateRow))
      .annotate(OpenApi.Summary, "List affiliates")
  )
  .add(
    HttpApiEndpoint.post("add", "/affiliates")
      .setPayload(
        Schema.Struct({
          product: Schema.String,
          email: Schema.String,
          name: Schema.optional(Schema.String),
          code: Schema.optional(Schema.String).annotations({
            description: "3 to 32 lower-case letters, digits or dashes; left out, one is made."
          })
        }).annotations(strict)
      )
      .addSuccess(AffiliateAnswer, { status: 201 })
      .annotate(OpenApi.Summary, "Add an affiliate")
      .annotate(
        OpenApi.Description,
        "Adds an active affiliate to a product with a program. 409 when the person is one already; 422 names a taken or malformed code."
      )
  )
  .add(HttpApiEndpoint.get("get", "/affiliates/:id").setPath(idPath).addSuccess(AffiliateAnswer))
  .add(
    HttpApiEndpoint.post("decide", "/affiliates/:id")
      .setPath(idPath)
      .setPayload(
        Schema.Struct({
          decision: Schema.Literal("accept", "decline", "remove").annotations({
            description: "accept a pending (or declined) applicant, decline a pending one, remove an affiliate."
          })
        }).annotations(strict)
      )
      .addSuccess(AffiliateAnswer)
      .annotate(OpenApi.Summary, "Accept, decline or remove an affiliate")
      .annotate(OpenApi.Description, "409 when the affiliate's status does not allow it.")
  )
  .add(
    HttpApiEndpoint.get("payouts", "/affiliates/:id/payouts")
      .setPath(idPath)
      .setUrlParams(
        Schema.Struct({
          from: Schema.String.annotations({ description: "Start of the period (ISO or ms), included." }),
          to: Schema.String.annotations({
            description: "End of the period (ISO or ms), left out; at most 366 days on."
          })
        }).annotations(strict)
      )
      .addSuccess(AffiliatePayoutAnswer)
      .annotate(OpenApi.Summary, "An affiliate's payout report")
      .annotate(
        OpenApi.Description,
        "What the affiliate earned on payments made in [from, to): commissions of refunded sales are reversed_cents, not owed; test sales are only test_commission_cents."
      )
  )

export { AFFILIATE_NOTE_MAX }
