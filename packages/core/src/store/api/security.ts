import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Context, Schema } from "effect"
import type { StoreCaller } from "../caller.js"
import { StoreForbidden, StorePlanRequired, StoreUnauthorized } from "./errors.js"

/** The caller of the current store API request, provided by `StoreAuth`. */
export class CurrentStoreCaller extends Context.Tag("svc/store/CurrentStoreCaller")<
  CurrentStoreCaller,
  StoreCaller
>() {}

/** Bearer authentication of every store route (API keys now; OAuth tokens with scope `store` later). */
export class StoreAuth extends HttpApiMiddleware.Tag<StoreAuth>()("svc/store/StoreAuth", {
  failure: Schema.Union(StoreUnauthorized, StorePlanRequired, StoreForbidden),
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
