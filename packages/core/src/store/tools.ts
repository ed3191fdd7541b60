import { Effect } from "effect"
import { bundleTools } from "./bundle-tools.js"
import { contentLinkTools } from "./content-link-tools.js"
import { customerTools } from "./customer-tools.js"
import { emailTools } from "./email-tools.js"
import { formTools } from "./forms/tools.js"
import { overviewTools } from "./overview-tools.js"
import { customAiProductTools } from "./product-tools.js"
import { salesTools } from "./sales-tools.js"

/** The Store group's tools: one toolset over the store's own services, the same ones `/store-app/v1` calls. */
export const storeTools = Effect.map(
  Effect.all([
    overviewTools,
    customAiProductTools,
    bundleTools,
    customerTools,
    contentLinkTools,
    salesTools,
    emailTools,
    formTools
  ]),
  (sets) => sets.flat()
)
