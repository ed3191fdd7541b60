import { Layer } from "effect"
import { CustomersHandlersLive } from "./customers.js"
import { DiscountCodesHandlersLive } from "./discount-codes.js"
import { EmailListHandlersLive } from "./email-list.js"
import { EmailSequencesHandlersLive } from "./email-sequences.js"
import { FeedsHandlersLive } from "./feeds.js"
import { FormsHandlersLive } from "./forms.js"
import { InstantHooksHandlersLive } from "./hooks.js"
import { IdentityHandlersLive } from "./identity.js"
import { PaidQuestionsHandlersLive } from "./paid-questions.js"
import { ProductsHandlersLive } from "./products.js"
import { ReviewsHandlersLive } from "./reviews.js"
import { CreatorPageHandlersLive } from "./creator-page.js"
import { LessonsHandlersLive } from "./lessons.js"
import { AffiliatesHandlersLive } from "./affiliates.js"
import { SalesHandlersLive } from "./sales.js"
import { SettingsHandlersLive } from "./settings.js"
import { WebhooksHandlersLive } from "./webhooks.js"

/** Every handler group of the store API. */
export const StoreHandlersLive = Layer.mergeAll(
  IdentityHandlersLive,
  SettingsHandlersLive,
  ProductsHandlersLive,
  SalesHandlersLive,
  CustomersHandlersLive,
  DiscountCodesHandlersLive,
  FeedsHandlersLive,
  PaidQuestionsHandlersLive,
  ReviewsHandlersLive,
  CreatorPageHandlersLive,
  LessonsHandlersLive,
  AffiliatesHandlersLive,
  EmailListHandlersLive,
  EmailSequencesHandlersLive,
  FormsHandlersLive,
  WebhooksHandlersLive,
  InstantHooksHandlersLive
)
