import { Layer } from "effect"
import { Credits } from "../credits/service.js"
import { CustomAis } from "../custom-ai/service.js"
import { StoreBundles } from "./catalog/bundles.js"
import { StoreCatalog } from "./catalog/catalog.js"
import { StoreCohorts } from "./cohorts/cohorts.js"
import { StoreContentLinks } from "./catalog/content-links.js"
import { StoreCustomers } from "./customers/customers.js"
import { StoreEmailList, StoreMailingList } from "./email-list/email-contacts.js"
import { StoreFeeds } from "./overview/feeds.js"
import { StoreForms } from "./forms/service.js"
import { StoreOverview } from "./overview/overview.js"
import { StoreEmailSequences } from "./sequences/service.js"
import { StoreSales } from "./sales/sales.js"
import { StoreSetup } from "./catalog/settings.js"
import { StoreSignups } from "./email-list/signups.js"
import { StoreTagging } from "./email-list/tags.js"

/** The store's services and the minimal Custom AI service they sell from. */
export const StoreLive = Layer.mergeAll(
  StoreCatalog.Default,
  // Bundles build on the catalog's product rules and publish flow.
  Layer.provide(StoreBundles.Default, StoreCatalog.Default),
  // A sale grants the credits its product includes.
  Layer.provide(StoreSales.Default, Credits.Default),
  StoreCustomers.Default,
  StoreFeeds.Default,
  StoreSetup.Default,
  StoreCohorts.Default,
  StoreOverview.Default,
  StoreTagging.Default,
  // Unsubscribe links and bounces move people on the list through it.
  StoreMailingList.pipe(Layer.provideMerge(StoreEmailList.Default)),
  StoreEmailSequences.Default,
  StoreContentLinks.Default,
  Layer.provide(StoreSignups.Default, StoreSetup.Default),
  // An accepted application may be given a product, as POST /customers gives one.
  Layer.provide(StoreForms.Default, Layer.merge(StoreCustomers.Default, StoreSetup.Default)),
  // Deleting a Custom AI gives back the credits of its answers still running.
  Layer.provide(CustomAis.Default, Credits.Default)
)
