import type { Effect } from "effect"
import type { Product } from "../catalog/product.js"

/** Why a free grant turned a person away. */
export type AddCustomerRejection = "product_not_found" | "product_not_live" | "access_off" | "sold_out"

/**
 * What a free grant of a product came to. A turned-away grant is an outcome, not a failure: the store API answers it
 * with `200 { ok: false, status: "rejected", … }`, the tools as a failure.
 */
export type AddCustomerOutcome =
  | { readonly status: "added" | "already_has_access" }
  | {
      readonly status: "rejected"
      readonly reason: Exclude<AddCustomerRejection, "sold_out">
      readonly message: string
    }
  | {
      readonly status: "rejected"
      readonly reason: "sold_out"
      readonly message: string
      /** Whether the person is now on the product's waitlist. */
      readonly waitlisted: boolean
    }

/** The free grant `StoreCustomers` shares between `POST /customers` and the import; runs in the caller's transaction. */
export type GrantAccess = (
  product: Product,
  person: { readonly email: string; readonly name?: string | undefined },
  how: "added" | "imported",
  options: { readonly sendEmail: boolean; readonly now: Date }
) => Effect.Effect<AddCustomerOutcome>
