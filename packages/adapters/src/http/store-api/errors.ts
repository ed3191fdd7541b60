import { answerFailure, type DomainFailure, excerpt, type FailureTable } from "@svc/core/shared"
import {
  StoreBadRequest,
  StoreConflict,
  StoreForbidden,
  StoreInternal,
  StoreInvalid,
  StoreNotFound,
  StorePlanRequired,
  StoreRateLimited,
  StoreUnauthorized,
  storeApiNextSteps
} from "@svc/core/store-api"
import { Effect } from "effect"
import { tidyProblems } from "./responses.js"

/** An error body of the store API (`{ ok: false, error, message }` with its HTTP code), as its contract declares. */
export type StoreError =
  | StoreBadRequest
  | StoreUnauthorized
  | StorePlanRequired
  | StoreForbidden
  | StoreNotFound
  | StoreConflict
  | StoreInvalid
  | StoreRateLimited
  | StoreInternal

// Core messages may name what the caller sent (`no product <id> in this store`); a long value is cut to an excerpt.
const MESSAGE_LENGTH = 500
const short = (message: string) => excerpt(message, MESSAGE_LENGTH)

/**
 * The store API's failure table: each domain failure as the spec's error body. The contract declares no 502, so an
 * outside system that did not answer is a 500 whose message names it; a workspace the caller lacks is a 404.
 */
export const storeErrors = {
  InvalidInput: (error) => new StoreInvalid({ message: short(error.message), errors: tidyProblems(error.errors) }),
  BadListRequest: (error) => new StoreBadRequest({ message: short(error.message) }),
  NotFound: (error) => new StoreNotFound({ message: short(error.message) }),
  MissingWorkspace: (error) => new StoreNotFound({ message: short(error.message) }),
  Conflict: (error) => new StoreConflict({ message: short(error.message) }),
  RateLimited: (error) =>
    new StoreRateLimited({ message: short(error.message), retry_after_seconds: error.retryAfterSeconds }),
  StoreAccessDenied: (error) =>
    error.code === "plan"
      ? new StorePlanRequired({ message: short(error.message) })
      : new StoreForbidden({ code: error.code, message: short(error.message) }),
  Forbidden: (error) =>
    error.reason === "plan"
      ? new StorePlanRequired({ message: short(error.message) })
      : new StoreForbidden({ code: "api_key_access", message: short(error.message) }),
  AuthExpired: (error) => new StoreUnauthorized({ message: short(error.message) }),
  Unreachable: (error) => new StoreInternal({ message: short(error.message) })
} satisfies FailureTable<StoreError>

/** A core failure as the store API's error body. */
export const toStoreError = answerFailure(storeErrors, storeApiNextSteps)

/** Runs a core use case, turning its declared failures into store API error bodies. */
export const answer = <A, E extends DomainFailure, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.mapError(effect, toStoreError)
