import { Layer } from "effect"
import { CustomAis } from "../custom-ai/service.js"
import { StoreCatalog } from "./catalog.js"
import { StoreCustomers } from "./customers.js"
import { StoreFeeds } from "./feeds.js"
import { StoreSales } from "./sales.js"
import { StoreSetup } from "./settings.js"

/** The store's services and the minimal Custom AI service they sell from. */
export const StoreLive = Layer.mergeAll(
  StoreCatalog.Default,
  StoreSales.Default,
  StoreCustomers.Default,
  StoreFeeds.Default,
  StoreSetup.Default,
  CustomAis.Default
)
