import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import { Context, Schema } from "effect"
import type { StoreCaller } from "../auth/store-caller.js"
import { StoreBadRequest, StoreForbidden, StoreInvalid, StorePlanRequired, StoreUnauthorized } from "./errors.js"

/** The caller of the current store API request, provided by `StoreAuth`. */
export class CurrentStoreCaller extends Context.Tag("svc/store/CurrentStoreCaller")<
  CurrentStoreCaller,
  StoreCaller
>() {}

/**
 * Bearer authentication of every store route (API keys now; OAuth tokens with scope `store` later). Once the
 * caller is known, it also refuses what PostgreSQL cannot take, which would otherwise fail in the database: a NUL
 * (`%00`) in the path or a query parameter (`bad_request`), and a body holding a NUL or half a surrogate pair in
 * any text (`invalid_field`).
 */
export class StoreAuth extends HttpApiMiddleware.Tag<StoreAuth>()("svc/store/StoreAuth", {
  failure: Schema.Union(StoreUnauthorized, StorePlanRequired, StoreForbidden, StoreInvalid, StoreBadRequest),
  provides: CurrentStoreCaller,
  security: {
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(
        OpenApi.Description,
        "An API key (svc_pat_…) with Full access or Store set to Read (GET only) or Edit."
      )
    )
  }
}) {}
