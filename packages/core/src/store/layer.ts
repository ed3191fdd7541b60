import { Layer } from "effect"
import { StoreBundles } from "./catalog/bundles.js"
import { StoreCatalog } from "./catalog/catalog.js"
import { StoreCohorts } from "./cohorts/cohorts.js"
import { StoreContentLinks } from "./catalog/content-links.js"
import { StoreCustomers } from "./customers/customers.js"
import { StoreDiscountCodes } from "./checkout/discount-codes.js"
import { StoreEmailList, StoreMailingList } from "./email-list/email-contacts.js"
import { StoreFeeds } from "./overview/feeds.js"
import { StorePaidQuestions } from "./questions/paid-questions.js"
import { StoreReviewRequests } from "./reviews/review-requests.js"
import { StoreReviews } from "./reviews/reviews.js"
import { StoreCreatorPage } from "./creator-page/creator-pages.js"
import { StoreCourses } from "./courses/courses.js"
import { StoreAffiliates } from "./affiliates/affiliates.js"
import { StoreForms } from "./forms/service.js"
import { StoreOverview } from "./overview/overview.js"
import { StoreEmailSequences } from "./sequences/service.js"
import { StoreSales } from "./sales/sales.js"
import { StoreCheckout } from "./checkout/checkout.js"
import { ProcessorEvents } from "./checkout/processor-events.js"
import { ProcessorSetup } from "./checkout/processor-setup.js"
import { StoreSetup } from "./catalog/settings.js"
import { StoreSignups } from "./email-list/signups.js"
import { StoreTagging } from "./email-list/tags.js"

/**
 * The store's services, each bringing the services it builds on (`Credits` for sales, the catalog for bundles, …),
 * and mail delivery's view of the email list (`MailingList`). Needs the ports (the live `CardProcessor` among them).
 */
export const StoreLive = Layer.mergeAll(
  StoreSetup.Default,
  StoreCatalog.Default,
  StoreBundles.Default,
  StoreContentLinks.Default,
  StoreSales.Default,
  StoreCheckout.Default,
  ProcessorSetup.Default,
  ProcessorEvents.Default,
  StoreCustomers.Default,
  StoreCohorts.Default,
  StoreDiscountCodes.Default,
  StoreFeeds.Default,
  StorePaidQuestions.Default,
  StoreReviews.Default,
  StoreReviewRequests.Default,
  StoreCreatorPage.Default,
  StoreCourses.Default,
  StoreAffiliates.Default,
  StoreOverview.Default,
  StoreTagging.Default,
  StoreSignups.Default,
  StoreForms.Default,
  StoreEmailSequences.Default,
  // A port implemented by a service: unsubscribe links and bounces move people on the list through it.
  StoreMailingList.pipe(Layer.provideMerge(StoreEmailList.Default))
)
