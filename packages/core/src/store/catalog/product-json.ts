import { Option } from "effect"
import type { Page, PageRequest } from "../../shared/paging.js"
import { creationKey, pageAnswer } from "../../shared/list-query.js"
import { bundledProductJson } from "./bundle.js"
import type { BundleView } from "./bundles.js"
import { defaultWhatsIncluded, type Product } from "./product.js"
import type { ListedProduct, ProductView, SellableCustomAi, StoreIdentity } from "./product-view.js"

// The store API's wire form of the catalog's values (snake_case, ISO times), which the store tools answer too.

/** A product with every field, as the store API answers it (a bundle with the ids of the products it sells). */
export const productJson = (product: Product, bundleProductIds: ReadonlyArray<string>) => ({
  id: product.id,
  kind: product.kind,
  custom_ai_id: product.customAiId,
  ...(product.kind === "bundle" ? { bundle_product_ids: bundleProductIds } : {}),
  status: product.status,
  live: product.status === "live",
  ...product.fields,
  whats_included: product.fields.whats_included ?? defaultWhatsIncluded(product.fields),
  created_at: product.createdAt.toISOString(),
  updated_at: product.updatedAt.toISOString(),
  published_at: product.publishedAt?.toISOString() ?? null
})

/** Every product answer: the product, whether it can go live, what remains before it can, and its stock. */
export const productAnswerJson = (view: ProductView) => ({
  product: productJson(view.product, view.bundleProductIds),
  can_publish: view.checklist.length === 0,
  publish_checklist: view.checklist.map((entry) => ({ item: entry.item, message: entry.message })),
  ...Option.match(view.quantityLeft, { onNone: () => ({}), onSome: (left) => ({ quantity_left: left }) }),
  ...Option.match(view.waitlistWaiting, { onNone: () => ({}), onSome: (waiting) => ({ waitlist_waiting: waiting }) })
})

/** A bundle as its tools answer it: the product answer with the bundle under `bundle`, and the products it sells. */
export const bundleAnswerJson = (bundle: BundleView) => {
  const { product, ...rest } = productAnswerJson(bundle.view)
  return { ...rest, bundle: product, products: bundle.products.map(bundledProductJson) }
}

/** A product answer of the store API (`POST`/`PATCH /products`, `GET /products/<id>`, publish, unpublish). */
export const productApiAnswer = (view: ProductView) => ({ ok: true as const, ...productAnswerJson(view) })

const billingLabel = { "one-time": "one-time", monthly: "monthly", yearly: "yearly" } as const

/** A product as the plain products list shows it. */
export const productSummaryJson = (product: Product) => ({
  id: product.id,
  name: `${product.fields.title} (${billingLabel[product.fields.billing]})`,
  title: product.fields.title,
  billing: product.fields.billing,
  live: product.status === "live",
  ownCheckout: product.fields.checkout_mode === "external"
})

/** A page of full product rows, as `GET /products` with paging answers it. */
export const productPageJson = (page: Page<ListedProduct>, request: PageRequest) =>
  pageAnswer(
    page,
    (listed) => productJson(listed.product, listed.bundleProductIds),
    request,
    (listed) => creationKey(listed.product)
  )

/** The store identity of `GET /me`. */
export const identityJson = (identity: StoreIdentity) => ({
  id: identity.accountId,
  email: identity.email,
  handle: identity.handle,
  store: { handle: identity.handle, name: identity.name, workspace_id: identity.workspaceId }
})

/** A Custom AI of `GET /custom-ais`. */
export const sellableCustomAiJson = (customAi: SellableCustomAi) => ({
  id: customAi.id,
  name: customAi.name,
  kind: customAi.kind,
  product_id: Option.getOrNull(customAi.productId),
  created_at: customAi.createdAt.toISOString()
})
