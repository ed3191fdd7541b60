import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { Schema } from "effect"

const ok = Schema.Literal(false).pipe(
  Schema.propertySignature,
  Schema.withConstructorDefault(() => false as const)
)
const code = <C extends string>(value: C) =>
  Schema.Literal(value).pipe(
    Schema.propertySignature,
    Schema.withConstructorDefault(() => value)
  )
const message = Schema.String.annotations({ description: "What went wrong and what to do about it." })

// Each class answers `_tag` with its name, so Effect code matches them with `Effect.catchTag("StoreNotFound", ...)`.
// It is a getter on the prototype, not a field: the wire body is `{ ok, error, message }` and never carries it.

/** 400: a list parameter or the request itself is wrong (malformed JSON, `limit` out of range). */
export class StoreBadRequest extends Schema.Class<StoreBadRequest>("StoreBadRequest")(
  { ok, error: code("bad_request"), message },
  HttpApiSchema.annotations({ status: 400 })
) {
  get _tag() {
    return "StoreBadRequest" as const
  }
}

/** 401: no token, or the token is expired or revoked. */
export class StoreUnauthorized extends Schema.Class<StoreUnauthorized>("StoreUnauthorized")(
  { ok, error: code("unauthorized"), message },
  HttpApiSchema.annotations({ status: 401 })
) {
  get _tag() {
    return "StoreUnauthorized" as const
  }
}

/** 402: store calls need the Starter plan or above. */
export class StorePlanRequired extends Schema.Class<StorePlanRequired>("StorePlanRequired")(
  { ok, error: code("plan_required"), message },
  HttpApiSchema.annotations({ status: 402 })
) {
  get _tag() {
    return "StorePlanRequired" as const
  }
}

/** 403: the credential cannot do that (`code` says why). */
export class StoreForbidden extends Schema.Class<StoreForbidden>("StoreForbidden")(
  {
    ok,
    error: code("forbidden"),
    code: Schema.Literal("api_key_access", "automation_connection").annotations({
      description:
        "api_key_access: the key's Store access is off, or Read for a change; automation_connection: an automation (OAuth) connection cannot change products."
    }),
    message
  },
  HttpApiSchema.annotations({ status: 403 })
) {
  get _tag() {
    return "StoreForbidden" as const
  }
}

/** 404: no product, sale or person with that id in this store. */
export class StoreNotFound extends Schema.Class<StoreNotFound>("StoreNotFound")(
  { ok, error: code("not_found"), message },
  HttpApiSchema.annotations({ status: 404 })
) {
  get _tag() {
    return "StoreNotFound" as const
  }
}

/** 409: it already exists, or the change clashes with the current state. */
export class StoreConflict extends Schema.Class<StoreConflict>("StoreConflict")(
  { ok, error: code("conflict"), message },
  HttpApiSchema.annotations({ status: 409 })
) {
  get _tag() {
    return "StoreConflict" as const
  }
}

/**
 * One bad field of a 422, as the API answers it: the domain's `FieldProblem` without its next step, which the
 * message already says in the API's words. (Its name is the contract's component name.)
 */
export class StoreFieldProblem extends Schema.Class<StoreFieldProblem>("FieldProblem")({
  path: Schema.String,
  message: Schema.String
}) {}

/** 422: a body field is missing, of the wrong type, unknown or not allowed. */
export class StoreInvalid extends Schema.Class<StoreInvalid>("StoreInvalid")(
  { ok, error: code("invalid_field"), message, errors: Schema.Array(StoreFieldProblem) },
  HttpApiSchema.annotations({ status: 422 })
) {
  get _tag() {
    return "StoreInvalid" as const
  }
}

/** 413: the request body is over the limit the message names (1 MiB unless the server is set otherwise). */
export class StorePayloadTooLarge extends Schema.Class<StorePayloadTooLarge>("StorePayloadTooLarge")(
  { ok, error: code("payload_too_large"), message },
  HttpApiSchema.annotations({ status: 413 })
) {
  get _tag() {
    return "StorePayloadTooLarge" as const
  }
}

/** 429: too many calls; try again after `retry_after_seconds`. */
export class StoreRateLimited extends Schema.Class<StoreRateLimited>("StoreRateLimited")(
  { ok, error: code("rate_limited"), message, retry_after_seconds: Schema.Int },
  HttpApiSchema.annotations({ status: 429 })
) {
  get _tag() {
    return "StoreRateLimited" as const
  }
}

/** 500: a server-side failure; try again and quote the request id in `message`. */
export class StoreInternal extends Schema.Class<StoreInternal>("StoreInternal")(
  { ok, error: code("internal"), message },
  HttpApiSchema.annotations({ status: 500 })
) {
  get _tag() {
    return "StoreInternal" as const
  }
}
