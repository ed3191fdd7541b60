import type { Page, PageRequest } from "../../shared/paging.js"
import { creationKey, pageAnswer } from "../../shared/list-query.js"
import type { AddCustomerOutcome } from "../sales/free-grant.js"
import {
  type CustomerProductLine,
  type CustomerRecord,
  hasAnyAccess,
  productsWithAccess,
  type RemoveAccessOutcome
} from "./customer-record.js"

// The store API's wire form of the people's records (snake_case, ISO times), which the store tools answer too.

/** One product line of a person's record (`AccessLine`). */
export const customerProductJson = (line: CustomerProductLine) => ({
  product_id: line.productId,
  product_title: line.productTitle,
  has_access: line.hasAccess,
  state: line.state,
  how: line.how,
  paid_until: line.paidUntil?.toISOString() ?? null,
  access_ends_at: line.accessEndsAt?.toISOString() ?? null,
  bundle_id: line.bundleId,
  content_links: line.contentLinks.map((link) => ({ title: link.title, url: link.url }))
})

/** A person as `GET /customers` and `GET /customers/<email>` answer them (`CustomerRow`). */
export const customerJson = (record: CustomerRecord) => ({
  id: record.customer.id,
  email: record.customer.email,
  name: record.customer.name,
  created_at: record.customer.createdAt.toISOString(),
  has_access: hasAnyAccess(record),
  products_with_access: productsWithAccess(record),
  products: record.products.map(customerProductJson),
  tags: record.tags
})

/** A match of `GET /customers/find` (`CustomerMatch`): the spec names the product lines `access`, after the tags. */
export const customerMatchJson = (record: CustomerRecord) => {
  const { products, ...person } = customerJson(record)
  return { ...person, access: products }
}

/** A page of people, as `GET /customers` answers it. */
export const customerPageJson = (page: Page<CustomerRecord>, request: PageRequest) =>
  pageAnswer(page, customerJson, request, (record) => creationKey(record.customer))

/** The answer of `POST /customers`: a turned-away grant is `ok: false` with its reason. */
export const addCustomerJson = (outcome: AddCustomerOutcome) =>
  outcome.status !== "rejected"
    ? { ok: true as const, status: outcome.status }
    : {
        ok: false as const,
        status: outcome.status,
        reason: outcome.reason,
        message: outcome.message,
        ...(outcome.reason === "sold_out" ? { waitlisted: outcome.waitlisted } : {})
      }

/** The answer of `POST /customers/remove-access`. */
export const removeAccessJson = (outcome: RemoveAccessOutcome) => ({ ok: true as const, status: outcome.status })

/** The answer of `POST /customers/access-email`, once the email is sent. */
export const accessEmailSentJson = { ok: true as const, sent: true }
