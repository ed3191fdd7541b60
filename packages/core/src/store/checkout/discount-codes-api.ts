import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { listQueryFields, PageOf, strict } from "../../shared/list-wire.js"
import { MAX_PRICE_CENTS } from "../catalog/product.js"
import { DISCOUNT_CODE_MAX, DISCOUNT_CODE_MIN } from "./discount-code.js"
import { DISCOUNT_MAX_USES_LIMIT, type NewDiscountCode, RANDOM_CODE_LENGTH } from "./discount-codes.js"

const iso = Schema.String.annotations({
  description: "ISO 8601 timestamp, UTC."
})
const codeRef = Schema.Struct({
  id: Schema.String.annotations({
    description: "The code's id (dsc_…), or the code itself in any case."
  })
})
const MAX_DOLLARS = (MAX_PRICE_CENTS / 100).toFixed(2)

/** A discount code as the store API answers it. */
export const DiscountCodeRow = Schema.Struct({
  id: Schema.String.annotations({ description: "dsc_…" }),
  product_id: Schema.String,
  code: Schema.String.annotations({
    description: "As the seller wrote it (or as made up); buyers may type any case."
  }),
  kind: Schema.Literal("percent", "amount"),
  value: Schema.Number.annotations({
    description: "Percent off with kind percent; dollars off with kind amount."
  }),
  percent_off: Schema.NullOr(Schema.Int).annotations({
    description: "1 to 100 with kind percent, else null."
  }),
  amount_off_cents: Schema.NullOr(Schema.Int).annotations({
    description: "Cents off with kind amount, else null."
  }),
  max_uses: Schema.NullOr(Schema.Int).annotations({
    description: "How many checkouts may use it; null: no cap."
  }),
  uses: Schema.Int.annotations({
    description: "Checkouts that used it so far."
  }),
  uses_left: Schema.NullOr(Schema.Int).annotations({
    description: "max_uses − uses, never below 0; null: no cap."
  }),
  expires_at: Schema.NullOr(iso).annotations({
    description: "When it stops working; null: never."
  }),
  active: Schema.Boolean.annotations({
    description: "Whether a buyer can use it now: not turned off, not expired, not used up."
  }),
  disabled_at: Schema.NullOr(iso).annotations({
    description: "When it was turned off; null while it is on."
  }),
  created_at: iso,
  checkout_url: Schema.String.annotations({
    description: "The product's checkout page with this code filled in, to share with buyers."
  })
}).annotations({
  identifier: "DiscountCodeRow",
  description: "A discount code of the service's checkout."
})

/** What `POST /discount-codes` takes. */
export const NewDiscountCodeBody = Schema.Struct({
  product: Schema.String.annotations({
    description:
      "The product's id (prod_…, GET /products). It must have a price and use the service's checkout (checkout_mode svc)."
  }),
  kind: Schema.Literal("percent", "amount").annotations({
    description: "percent: value is the percent off; amount: value is the dollars off."
  }),
  value: Schema.Number.annotations({
    description: `With percent: a whole number, 1 to 100. With amount: dollars, more than 0, at most two decimals (9.99), at most ${MAX_DOLLARS}.`
  }),
  code: Schema.optional(Schema.NullOr(Schema.String)).annotations({
    description: `${DISCOUNT_CODE_MIN} to ${DISCOUNT_CODE_MAX} letters, digits or dashes; unique in the store in any case. Empty, null or left out: a random ${RANDOM_CODE_LENGTH}-character code.`
  }),
  max_uses: Schema.optional(Schema.NullOr(Schema.Int)).annotations({
    description: `How many checkouts may use it, 1 to ${DISCOUNT_MAX_USES_LIMIT}; null or left out: no cap.`
  }),
  expires_at: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))).annotations({
    description:
      "When it stops working, in the future: an ISO date or time (a date alone is 00:00 UTC) or milliseconds since 1970; null or left out: never."
  })
}).annotations(strict)

/** A `POST /discount-codes` body as `StoreDiscountCodes.create` takes it. */
export const newDiscountCodeOf = (body: typeof NewDiscountCodeBody.Type): NewDiscountCode => ({
  productId: body.product,
  kind: body.kind,
  value: body.value,
  code: body.code,
  maxUses: body.max_uses,
  expiresAt: body.expires_at
})

/** The answer of `GET /discount-codes/<id>` and `POST /discount-codes/<id>/disable`. */
export const DiscountCodeAnswer = Schema.Struct({
  ok: Schema.Literal(true),
  discount_code: DiscountCodeRow
})

/** The answer of `POST /discount-codes`: the code, and its code and checkout link again at the top for automations. */
export const DiscountCodeCreated = Schema.Struct({
  ok: Schema.Literal(true),
  discount_code: DiscountCodeRow,
  code: Schema.String.annotations({
    description: "The code buyers type (the one given, or the one made up)."
  }),
  checkout_url: Schema.String.annotations({
    description: "The checkout page with the code filled in."
  })
})

/**
 * The discount codes of the service's checkout on the store API: made, listed, read and turned off. Reads take any
 * store key; changes a Store Edit API key (an automation connection is refused, as for the store's settings).
 */
export const DiscountCodesApiGroup = HttpApiGroup.make("discountCodes")
  .add(
    HttpApiEndpoint.post("create", "/discount-codes")
      .setPayload(NewDiscountCodeBody)
      .addSuccess(DiscountCodeCreated, { status: 201 })
      .annotate(OpenApi.Summary, "Create a discount code")
      .annotate(
        OpenApi.Description,
        "Makes a code that takes a percent or an amount off one product at the service's checkout, and answers it with checkout_url, the checkout page with the code filled in, to share. 404: no such product in this store (GET /products lists them). 422: a rule is broken (errors names each field; a free product or one with checkout_mode external: change it with PATCH /products/<id> first). 409: the store already has that code in some case; pick another or leave code out. Needs a Store Edit API key."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/discount-codes")
      .setUrlParams(
        Schema.Struct({
          ...listQueryFields,
          product: Schema.optional(Schema.String).annotations({
            description: "Only this product's codes (prod_…)."
          })
        }).annotations(strict)
      )
      .addSuccess(PageOf(DiscountCodeRow))
      .annotate(OpenApi.Summary, "List discount codes")
      .annotate(
        OpenApi.Description,
        "The store's discount codes, newest first, turned-off ones too (active says which work now). Pass next_cursor as starting_after while has_more is true."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/discount-codes/:id")
      .setPath(codeRef)
      .addSuccess(DiscountCodeAnswer)
      .annotate(OpenApi.Summary, "Get a discount code")
      .annotate(
        OpenApi.Description,
        "One code by its id or by the code itself (any case), with its uses so far and whether it works now. 404 when the store has no such code."
      )
  )
  .add(
    HttpApiEndpoint.post("disable", "/discount-codes/:id/disable")
      .setPath(codeRef)
      .addSuccess(DiscountCodeAnswer)
      .annotate(OpenApi.Summary, "Turn a discount code off")
      .annotate(
        OpenApi.Description,
        "Turns a code off for good: the checkout refuses it from now on. The code is kept (sales name it) and stays taken, so it cannot be made again; make a new code to offer a discount again. Turning off a code that is off already answers it unchanged. Needs a Store Edit API key."
      )
  )
