import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Email } from "../accounts/schema.js"
import { ProductChanges, ProductStatus } from "../store/catalog/product.js"
import { SaleEvent } from "../store/sales/sale.js"
import {
  StoreBadRequest,
  StorePayloadTooLarge,
  StoreConflict,
  StoreInternal,
  StoreInvalid,
  StoreNotFound,
  StoreRateLimited
} from "./errors.js"
import {
  CohortRow,
  CohortSignupRow,
  CustomerFeedRow,
  MembershipChangeRow,
  MembershipPaymentRow,
  RefundFeedRow,
  SaleFeedRow
} from "../store/overview/feed-rows.js"
import { storeOpenApiTransform } from "./openapi.js"
import { CustomerMatch, CustomerRow, ProductAnswer, ProductRow, ProductSummary, SaleRow } from "../store/api-rows.js"
import { listQueryFields, PageOf, queryBoolean, queryChoice, strict } from "../shared/list-wire.js"
import { EmailListApiGroup } from "../store/email-list/email-list-api.js"
import { FormsApiGroup } from "../store/forms/api.js"
import { DiscountCodesApiGroup } from "../store/checkout/discount-codes-api.js"
import { PaidQuestionsApiGroup } from "../store/questions/question-api.js"
import { ReviewsApiGroup } from "../store/reviews/review-api.js"
import { LessonsApiGroup } from "../store/courses/lesson-api.js"
import { AffiliatesApiGroup } from "../store/affiliates/affiliate-api.js"
import { CreatorPageApiGroup } from "../store/creator-page/creator-page-api.js"
import { StoreSettingsApiGroup } from "../store/catalog/settings-api.js"
import { EmailSequencesApiGroup } from "../store/sequences/api.js"
import { WebhooksApiGroup } from "../webhooks/api.js"
import { InstantHooksApiGroup } from "../webhooks/instant-hooks/api.js"
import { StoreAuth } from "./security.js"

const idPath = Schema.Struct({ id: Schema.String })
const productFilter = Schema.Struct({ product: Schema.optional(Schema.String) }).annotations(strict)

const identity = HttpApiGroup.make("identity")
  .add(
    HttpApiEndpoint.get("me", "/me").addSuccess(
      Schema.Struct({
        ok: Schema.Literal(true),
        id: Schema.String,
        email: Schema.String,
        handle: Schema.String,
        store: Schema.Struct({ handle: Schema.String, name: Schema.String, workspace_id: Schema.String })
      })
    )
  )
  .add(
    HttpApiEndpoint.get("customAis", "/custom-ais").addSuccess(
      Schema.Struct({
        ok: Schema.Literal(true),
        custom_ais: Schema.Array(
          Schema.Struct({
            id: Schema.String,
            name: Schema.String,
            kind: Schema.Literal("assistant", "course"),
            product_id: Schema.NullOr(Schema.String),
            created_at: Schema.String
          })
        )
      })
    )
  )

const products = HttpApiGroup.make("products")
  .add(
    HttpApiEndpoint.get("list", "/products")
      .setUrlParams(
        Schema.Struct({
          ...listQueryFields,
          status: Schema.optional(queryChoice(ProductStatus.literals, "status must be draft, live or off")).annotations(
            {
              description: "draft, live or off."
            }
          )
        }).annotations(strict)
      )
      .addSuccess(
        Schema.Union(
          Schema.Struct({ ok: Schema.Literal(true), products: Schema.Array(ProductSummary) }),
          PageOf(ProductRow)
        ).annotations({
          description: "Without paging fields or status: summaries; with any of them: a page of full rows."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/products")
      .setPayload(
        Schema.Struct({
          kind: Schema.optional(Schema.Literal("custom_ai", "question")).annotations({
            description:
              "custom_ai (the default) sells the Custom AI custom_ai_id names; question sells your answer to a question the buyer asks at checkout (no custom_ai_id; answer_within_days sets the due date). Bundles are made with svc_save_bundle."
          }),
          custom_ai_id: Schema.optional(Schema.String).annotations({
            description: "The Custom AI to sell (GET /custom-ais); needed unless kind is question."
          }),
          ...ProductChanges.fields
        }).annotations(strict)
      )
      .addSuccess(ProductAnswer, { status: 201 })
  )
  .add(HttpApiEndpoint.get("get", "/products/:id").setPath(idPath).addSuccess(ProductAnswer))
  .add(
    HttpApiEndpoint.patch("update", "/products/:id")
      .setPath(idPath)
      .setPayload(ProductChanges.annotations(strict))
      .addSuccess(ProductAnswer)
  )
  .add(HttpApiEndpoint.post("publish", "/products/:id/publish").setPath(idPath).addSuccess(ProductAnswer))
  .add(HttpApiEndpoint.post("unpublish", "/products/:id/unpublish").setPath(idPath).addSuccess(ProductAnswer))
  .add(
    HttpApiEndpoint.get("cohorts", "/products/:id/cohorts")
      .setPath(idPath)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), cohorts: Schema.Array(CohortRow) }))
  )
  .add(
    HttpApiEndpoint.post("createCohort", "/products/:id/cohorts")
      .setPath(idPath)
      .setPayload(
        Schema.Struct({
          name: Schema.String.pipe(Schema.maxLength(200)).annotations({
            description: "Cohort name, 1 to 200 characters."
          }),
          capacity: Schema.optional(Schema.NullOr(Schema.Int)).annotations({
            description: "The most people it takes (1 to 100000); null or left out for no cap."
          }),
          starts_on: Schema.optional(Schema.NullOr(Schema.String)).annotations({
            description: "The day it starts, YYYY-MM-DD."
          })
        }).annotations(strict)
      )
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), cohort: CohortRow }), { status: 201 })
  )

const sales = HttpApiGroup.make("sales")
  .add(
    HttpApiEndpoint.post("record", "/sales")
      .setPayload(
        Schema.Struct({
          event: SaleEvent,
          product: Schema.String.annotations({ description: "Product id from the products list." }),
          email: Email.annotations({ description: "The email the buyer paid with." }),
          name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
          order_id: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).annotations({
            description: "The checkout's order or payment id; the same id twice counts once."
          }),
          subscription_id: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
          paid_until: Schema.optional(Schema.Union(Schema.String, Schema.Number)).annotations({
            description: "ISO date or milliseconds."
          }),
          ends_at: Schema.optional(Schema.Union(Schema.String, Schema.Number)).annotations({
            description: "When a cancelled membership's access ends; ISO date or milliseconds."
          }),
          affiliate: Schema.optional(Schema.String.pipe(Schema.maxLength(100))).annotations({
            description:
              "sale only: the code of the affiliate whose link brought it (their ?via=); it earns their commission."
          })
        }).annotations(strict)
      )
      .addSuccess(
        Schema.Union(
          Schema.Struct({
            ok: Schema.Literal(true),
            status: Schema.Literal("granted", "restored", "renewed", "cancelled", "revoked", "duplicate")
          }),
          Schema.Struct({
            ok: Schema.Literal(false),
            status: Schema.Literal("rejected"),
            reason: Schema.Literal(
              "product_not_found",
              "product_not_live",
              "not_a_membership",
              "no_access",
              "order_not_found",
              "sold_out",
              "waitlist_mode"
            ),
            message: Schema.String,
            waitlisted: Schema.optional(Schema.Boolean).annotations({
              description: "With sold_out and waitlist_mode: whether the buyer is now on the product's waitlist."
            })
          })
        )
      )
      .addError(StoreRateLimited)
  )
  .add(
    HttpApiEndpoint.get("list", "/sales")
      .setUrlParams(
        Schema.Struct({
          ...listQueryFields,
          product: Schema.optional(Schema.String),
          email: Schema.optional(Schema.String),
          status: Schema.optional(
            queryChoice(SaleRow.fields.status.literals, "status must be paid, refunded or free")
          ).annotations({
            description: "paid, refunded or free."
          })
        }).annotations(strict)
      )
      .addSuccess(PageOf(SaleRow))
  )
  .add(
    HttpApiEndpoint.get("recent", "/sales/recent")
      .setUrlParams(productFilter)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), sales: Schema.Array(SaleFeedRow) }))
  )
  .add(
    HttpApiEndpoint.get("get", "/sales/:id")
      .setPath(idPath)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), sale: SaleRow }))
  )

const customerAction = Schema.Struct({ product: Schema.String, email: Email }).annotations(strict)
const customers = HttpApiGroup.make("customers")
  .add(
    HttpApiEndpoint.post("add", "/customers")
      .setPayload(
        Schema.Struct({
          product: Schema.String,
          email: Email,
          name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
          send_email: Schema.optional(Schema.Boolean).annotations({ description: "Default true." })
        }).annotations(strict)
      )
      .addSuccess(
        Schema.Union(
          Schema.Struct({ ok: Schema.Literal(true), status: Schema.Literal("added", "already_has_access") }),
          Schema.Struct({
            ok: Schema.Literal(false),
            status: Schema.Literal("rejected"),
            reason: Schema.Literal("product_not_found", "product_not_live", "access_off", "sold_out"),
            message: Schema.String,
            waitlisted: Schema.optional(Schema.Boolean).annotations({
              description: "With sold_out: whether the person is now on the product's waitlist."
            })
          })
        )
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/customers")
      .setUrlParams(
        Schema.Struct({
          ...listQueryFields,
          product: Schema.optional(Schema.String),
          has_access: Schema.optional(queryBoolean("has_access")).annotations({ description: "true or false." }),
          tag: Schema.optional(Schema.String).annotations({ description: "A tag's id (tag_…) or name (any case)." })
        }).annotations(strict)
      )
      .addSuccess(PageOf(CustomerRow))
  )
  .add(
    HttpApiEndpoint.get("find", "/customers/find")
      .setUrlParams(Schema.Struct({ email: Email, product: Schema.optional(Schema.String) }).annotations(strict))
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), customers: Schema.Array(CustomerMatch) }))
  )
  .add(
    HttpApiEndpoint.get("recent", "/customers/recent")
      .setUrlParams(productFilter)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), customers: Schema.Array(CustomerFeedRow) }))
  )
  .add(
    HttpApiEndpoint.get("get", "/customers/:email")
      .setPath(Schema.Struct({ email: Email }))
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), customer: CustomerRow }))
  )
  .add(
    HttpApiEndpoint.post("removeAccess", "/customers/remove-access")
      .setPayload(customerAction)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), status: Schema.Literal("removed", "already_off") }))
  )
  .add(
    HttpApiEndpoint.post("accessEmail", "/customers/access-email")
      .setPayload(customerAction)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), sent: Schema.Boolean }))
      .addError(StoreRateLimited)
  )
  .add(
    HttpApiEndpoint.post("cohort", "/customers/cohort")
      .setPayload(
        Schema.Struct({
          product: Schema.String,
          email: Email,
          cohort: Schema.String.annotations({ description: "Cohort id (GET /products/<id>/cohorts)." }),
          over_cap: Schema.optional(Schema.Boolean).annotations({
            description: "true adds the buyer to a full cohort anyway (default false: a full cohort answers 422)."
          })
        }).annotations(strict)
      )
      .addSuccess(
        Schema.Struct({
          ok: Schema.Literal(true),
          status: Schema.Literal("moved", "already_in_cohort"),
          cohort: CohortRow
        })
      )
  )

const feeds = HttpApiGroup.make("feeds")
  .add(
    HttpApiEndpoint.get("payments", "/memberships/payments")
      .setUrlParams(productFilter)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), payments: Schema.Array(MembershipPaymentRow) }))
  )
  .add(
    HttpApiEndpoint.get("changes", "/memberships/changes")
      .setUrlParams(productFilter)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), changes: Schema.Array(MembershipChangeRow) }))
  )
  .add(
    HttpApiEndpoint.get("refunds", "/refunds/recent")
      .setUrlParams(productFilter)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), refunds: Schema.Array(RefundFeedRow) }))
  )
  .add(
    HttpApiEndpoint.get("cohortSignups", "/cohort-signups/recent")
      .setUrlParams(productFilter)
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), signups: Schema.Array(CohortSignupRow) }))
  )

/**
 * The store API contract (`/store-app/v1`): every route needs a bearer API key bound to one store. Composed here,
 * above `store/` and `webhooks/`, because the webhooks group builds on the store's rows and caller.
 * Implemented in `@svc/adapters` (http/store-api); the OpenAPI file is derived from it.
 */
export class StoreApi extends HttpApi.make("store")
  .add(identity)
  .add(StoreSettingsApiGroup)
  .add(products)
  .add(sales)
  .add(customers)
  .add(DiscountCodesApiGroup)
  .add(feeds)
  .add(PaidQuestionsApiGroup)
  .add(ReviewsApiGroup)
  .add(LessonsApiGroup)
  .add(AffiliatesApiGroup)
  .add(CreatorPageApiGroup)
  .add(EmailListApiGroup)
  .add(EmailSequencesApiGroup)
  .add(FormsApiGroup)
  .add(WebhooksApiGroup)
  .add(InstantHooksApiGroup)
  .addError(StoreBadRequest)
  .addError(StoreNotFound)
  .addError(StoreConflict)
  .addError(StoreInvalid)
  .addError(StorePayloadTooLarge)
  .addError(StoreRateLimited)
  .addError(StoreInternal)
  .middleware(StoreAuth)
  .prefix("/store-app/v1")
  .annotate(OpenApi.Title, "svc store API")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(OpenApi.Transform, storeOpenApiTransform) {}
