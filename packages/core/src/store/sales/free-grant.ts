import type { Effect } from "effect"
import type { Product } from "../catalog/product.js"

/** The answer of `POST /customers`. */
export type AddCustomerAnswer =
  | { readonly ok: true; readonly status: "added" | "already_has_access" }
  | {
      readonly ok: false
      readonly status: "rejected"
      readonly reason: "product_not_found" | "product_not_live" | "access_off" | "sold_out"
      readonly message: string
      /** With `sold_out`: whether the person is now on the product's waitlist. */
      readonly waitlisted?: boolean
    }

/** The free grant `StoreCustomers` shares between `POST /customers` and the import; runs in the caller's transaction. */
export type GrantAccess = (
  product: Product,
  person: { readonly email: string; readonly name?: string | undefined },
  how: "added" | "imported",
  options: { readonly sendEmail: boolean; readonly now: Date }
) => Effect.Effect<AddCustomerAnswer>
