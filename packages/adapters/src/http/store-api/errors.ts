import type { RateLimited } from "@svc/core/limits"
import { type Conflict, excerpt, type InvalidInput, type NotFound } from "@svc/core/shared"
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
import { tidyProblems } from "./responses.js"

type DomainFailure = InvalidInput | BadListRequest | NotFound | Conflict | StoreAccessDenied | RateLimited

// Core messages may name what the caller sent (`no product <id> in this store`); a long value is cut to an excerpt.
const MESSAGE_LENGTH = 500

/** A core failure as the store API's error body (`{ ok: false, error, message }` with its HTTP code). */
export const toStoreError = (error: DomainFailure) => {
  const message = excerpt(error.message, MESSAGE_LENGTH)
  switch (error._tag) {
    case "InvalidInput":
      return new StoreInvalid({ message, errors: tidyProblems(error.errors) })
    case "BadListRequest":
      return new StoreBadRequest({ message })
    case "NotFound":
      return new StoreNotFound({ message })
    case "Conflict":
      return new StoreConflict({ message })
    case "RateLimited":
      return new StoreRateLimited({ message, retry_after_seconds: error.retryAfterSeconds })
    case "StoreAccessDenied":
      return error.code === "plan"
        ? new StorePlanRequired({ message })
        : new StoreForbidden({ code: error.code, message })
  }
}

/** Runs a core use case, turning its declared failures into store API error bodies. */
export const answer = <A, E extends DomainFailure, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.mapError(effect, toStoreError)
