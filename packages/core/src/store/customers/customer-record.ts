import type { ContentLink } from "../catalog/content-links.js"
import type { CreatedRange, PageRequest } from "../../shared/paging.js"
import type { AccessHow, AccessState, Customer } from "../sales/access.js"

/** A person's standing with one product, as their record shows it. */
export interface CustomerProductLine {
  readonly productId: string
  /** The product's title; empty when the product is gone. */
  readonly productTitle: string
  /** Whether the person can use the product now. */
  readonly hasAccess: boolean
  readonly state: AccessState
  readonly how: AccessHow | null
  readonly paidUntil: Date | null
  readonly accessEndsAt: Date | null
  /** The bundle that gave this access; null when the access is the person's own. */
  readonly bundleId: string | null
  /** What the product delivers, in order; empty without access, since only people who can use it see it. */
  readonly contentLinks: ReadonlyArray<ContentLink>
}

/** A person with every product they have had, and their tags. */
export interface CustomerRecord {
  readonly customer: Customer
  readonly products: ReadonlyArray<CustomerProductLine>
  /** The person's tag names, alphabetical. */
  readonly tags: ReadonlyArray<string>
}

/** Whether the person can use any product now. */
export const hasAnyAccess = (record: CustomerRecord): boolean => record.products.some((line) => line.hasAccess)

/** The ids of the products the person can use now. */
export const productsWithAccess = (record: CustomerRecord): ReadonlyArray<string> =>
  record.products.filter((line) => line.hasAccess).map((line) => line.productId)

/** Which customers a page reads: the page, the creation window, and the filters. */
export interface CustomerListQuery {
  readonly page: PageRequest
  readonly created: CreatedRange
  /** Only people who have had this product. */
  readonly productId?: string | undefined
  /** Only people with (true) or without (false) access now. */
  readonly hasAccess?: boolean | undefined
  /** A tag's id or name (any case); blank reads as no filter. */
  readonly tag?: string | undefined
}

/** Who and what a change of a person's access names. */
export interface CustomerTarget {
  readonly productId: string
  readonly email: string
}

/** A free grant of a product to a person (`POST /customers`, the tools, an accepted application). */
export interface NewCustomer extends CustomerTarget {
  readonly name?: string | undefined
  /** Send the access email; default true. */
  readonly sendEmail?: boolean | undefined
}

/** What switching a person's access off did: `already_off` when they had no access to lose. */
export interface RemoveAccessOutcome {
  readonly status: "removed" | "already_off"
}
