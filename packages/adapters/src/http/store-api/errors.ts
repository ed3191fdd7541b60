import type { RateLimited } from "@svc/core/limits"
import type { Conflict, InvalidInput, NotFound } from "@svc/core/shared"
import type { BadListRequest, StoreAccessDenied } from "@svc/core/store"
import {
  StoreBadRequest,
  StoreConflict,
  StoreForbidden,
  StoreInvalid,
  StoreNotFound,
  StorePlanRequired,
  StoreRateLimited
} from "@svc/core/store-api"
import { Effect } from "effect"

type DomainFailure = InvalidInput | BadListRequest | NotFound | Conflict | StoreAccessDenied | RateLimited

/** A core failure as the store API's error body (`{ ok: false, error, message }` with its HTTP code). */
export const toStoreError = (error: DomainFailure) => {
  switch (error._tag) {
    case "InvalidInput":
      return new StoreInvalid({ message: error.message, errors: error.errors })
    case "BadListRequest":
      return new StoreBadRequest({ message: error.message })
    case "NotFound":
      return new StoreNotFound({ message: error.message })
    case "Conflict":
      return new StoreConflict({ message: error.message })
    case "RateLimited":
      return new StoreRateLimited({ message: error.message, retry_after_seconds: error.retryAfterSeconds })
    case "StoreAccessDenied":
      return error.code === "plan"
        ? new StorePlanRequired({ message: error.message })
        : new StoreForbidden({ code: error.code, message: error.message })
  }
}

/** Runs a core use case, turning its declared failures into store API error bodies. */
export const answer = <A, E extends DomainFailure, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.mapError(effect, toStoreError)
