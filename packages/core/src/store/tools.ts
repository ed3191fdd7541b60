import { Effect } from "effect"
import { bundleTools } from "./catalog/bundle-tools.js"
import { contentLinkTools } from "./catalog/content-link-tools.js"
import { customerTools } from "./customers/customer-tools.js"
import { emailTools } from "./email-list/email-tools.js"
import { formTools } from "./forms/tools.js"
import { overviewTools } from "./overview/overview-tools.js"
import { customAiProductTools } from "./catalog/product-tools.js"
import { reviewTools } from "./reviews/review-tools.js"
import { creatorPageTools } from "./creator-page/creator-page-tools.js"
import { lessonQuestionTools } from "./courses/lesson-question-tools.js"
import { affiliateTools } from "./affiliates/affiliate-tools.js"
import { salesTools } from "./sales/sales-tools.js"

/** The Store group's tools: one toolset over the store's own services, the same ones `/store-app/v1` calls. */
export const storeTools = Effect.map(
  Effect.all([
    overviewTools,
    customAiProductTools,
    bundleTools,
    customerTools,
    contentLinkTools,
    salesTools,
    reviewTools,
    emailTools,
    formTools,
    creatorPageTools,
    lessonQuestionTools,
    affiliateTools
  ]),
  (sets) => sets.flat()
)
