import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Schema } from "effect"
import { InvalidInput, renamePaths } from "../../shared/errors.js"
import { strict } from "../../shared/list-wire.js"
import { STORE_NAME_MAX, type StoreSettingsChanges, type StoreSettingsView } from "./settings.js"

const CardProcessor = Schema.Literal("connected", "none").annotations({
  description:
    "connected: a card processor takes the store's payments, so paid products can use the store's own checkout: the connected Stripe account (stripe, set with PUT /settings/stripe), else the built-in test processor (test mode, no money moves); none: paid products need checkout_mode external with checkout_url."
})

/** The store's Stripe account as its settings show it: never the keys. */
export const StripeAccountRow = Schema.Struct({
  via: Schema.Literal("key", "connect").annotations({
    description:
      "key: connected with the store's own secret key (PUT /settings/stripe); connect: the owner connected it through Stripe Connect on the settings page."
  }),
  account_id: Schema.String.annotations({ description: "The Stripe account that takes the payments (acct_…)." }),
  livemode: Schema.Boolean.annotations({
    description: "true: a live key, real money moves; false: Stripe's own test mode (its test cards)."
  }),
  connected_at: Schema.String.annotations({ description: "When the keys were set (ISO 8601)." }),
  webhook_url: Schema.String.annotations({
    description:
      "With via key: add this address as a webhook endpoint in Stripe (Developers > Webhooks) with the events checkout.session.completed, checkout.session.async_payment_succeeded, checkout.session.expired, invoice.paid, invoice.payment_failed, customer.subscription.updated, customer.subscription.deleted and charge.refunded; its signing secret is webhook_secret. With via connect: the server's own Connect endpoint, nothing to add."
  })
}).annotations({ identifier: "StripeAccountRow", description: "The store's connected Stripe account." })

/** What `PUT /settings/stripe` takes. */
export const StripeConnectBody = Schema.Struct({
  secret_key: Schema.String.pipe(Schema.maxLength(300)).annotations({
    description:
      "The Stripe secret key (sk_live_… or sk_test_…, or a restricted rk_ key); kept sealed, never shown again."
  }),
  webhook_secret: Schema.String.pipe(Schema.maxLength(300)).annotations({
    description: "The signing secret (whsec_…) of the webhook endpoint you added in Stripe for webhook_url."
  })
}).annotations(strict)

/** The store's settings as the store API answers them. */
export const StoreSettingsRow = Schema.Struct({
  handle: Schema.String.annotations({ description: "The store's handle, the end of its web address; fixed." }),
  name: Schema.String.annotations({ description: "The store's display name." }),
  support_email: Schema.NullOr(Schema.String).annotations({
    description: "Where buyers write for help; a product cannot be published while it is null."
  }),
  card_processor: CardProcessor,
  email_list_add_buyers: Schema.Boolean.annotations({
    description: "Whether a buyer (a sale or a free grant) joins the email list as a subscribed contact."
  }),
  email_double_opt_in: Schema.Boolean.annotations({
    description: "Whether a public sign-up joins only after confirming by email."
  }),
  stripe: Schema.NullOr(StripeAccountRow).annotations({
    description:
      "The connected Stripe account that takes the checkout's payments; null: with card_processor connected, the built-in test processor takes them (no money moves)."
  })
}).annotations({ identifier: "StoreSettingsRow", description: "The store's settings." })

/** The settings answer: `{ ok, settings }`. */
export const StoreSettingsAnswer = Schema.Struct({ ok: Schema.Literal(true), settings: StoreSettingsRow })

/** What `PATCH /settings` takes: a field left out is kept. */
export const StoreSettingsPatch = Schema.Struct({
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(STORE_NAME_MAX))).annotations({
    description: `The store's display name, 1 to ${STORE_NAME_MAX} characters.`
  }),
  support_email: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(254)))).annotations({
    description: "An email address like help@example.com; null clears it (products can then not be published)."
  }),
  card_processor: Schema.optional(CardProcessor),
  email_list_add_buyers: Schema.optional(Schema.Boolean).annotations({
    description: "true (the default): buyers join the email list."
  }),
  email_double_opt_in: Schema.optional(Schema.Boolean).annotations({
    description: "true: public sign-ups confirm by email first (off by default)."
  })
}).annotations(strict)

/** The store's settings on the store API: read them with any store key, change them with a Store Edit API key. */
export const StoreSettingsApiGroup = HttpApiGroup.make("settings")
  .add(HttpApiEndpoint.get("get", "/settings").addSuccess(StoreSettingsAnswer))
  .add(HttpApiEndpoint.patch("update", "/settings").setPayload(StoreSettingsPatch).addSuccess(StoreSettingsAnswer))
  .add(
    HttpApiEndpoint.put("connectStripe", "/settings/stripe")
      .setPayload(StripeConnectBody)
      .addSuccess(StoreSettingsAnswer)
  )
  .add(HttpApiEndpoint.del("disconnectStripe", "/settings/stripe").addSuccess(StoreSettingsAnswer))

/** A store's settings as the store API answers them. */
export const storeSettingsJson = (view: StoreSettingsView): typeof StoreSettingsRow.Type => ({
  handle: view.store.handle,
  name: view.store.name,
  support_email: view.settings.supportEmail,
  card_processor: view.settings.cardProcessor,
  email_list_add_buyers: view.settings.emailListAddBuyers,
  email_double_opt_in: view.settings.emailDoubleOptIn,
  stripe:
    view.processor === null
      ? null
      : {
          via: view.processor.via,
          account_id: view.processor.accountId,
          livemode: view.processor.livemode,
          connected_at: view.processor.connectedAt.toISOString(),
          webhook_url: view.processor.webhookUrl
        }
})

/** A `PATCH /settings` body as the settings service takes it. */
export const storeSettingsChangesOf = (patch: typeof StoreSettingsPatch.Type): StoreSettingsChanges => ({
  name: patch.name,
  supportEmail: patch.support_email,
  cardProcessor: patch.card_processor,
  emailListAddBuyers: patch.email_list_add_buyers,
  emailDoubleOptIn: patch.email_double_opt_in
})

// The settings service names fields as the domain does; the API's body names them in snake_case.
const wireNames: Readonly<Record<string, string>> = {
  supportEmail: "support_email",
  cardProcessor: "card_processor",
  secretKey: "secret_key",
  webhookSecret: "webhook_secret"
}

/** A settings refusal with its paths as the body names the fields (`support_email`, not `supportEmail`). */
export const settingsProblemOnWire = <E>(error: E): E | InvalidInput =>
  error instanceof InvalidInput ? renamePaths(error, (path) => wireNames[path] ?? path) : error
