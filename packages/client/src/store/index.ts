/** The store API client (Promise face): `createStoreClient`, its typed errors and its paged lists. */
export {
  createStoreClient,
  type ProductSummaries,
  type RecordSaleAnswer,
  type RecordSaleInput,
  type StoreClient,
  type StoreClientOptions
} from "./client.js"
export type { Args, Endpoint, ListEndpoint, NoInput } from "./endpoints.js"
export {
  type FieldProblem,
  StoreApiError,
  type StoreApiErrors,
  StoreBadRequestError,
  StoreConflictError,
  StoreForbiddenError,
  StoreInternalError,
  StoreInvalidError,
  StoreNotFoundError,
  StorePayloadTooLargeError,
  StorePlanRequiredError,
  StoreRateLimitedError,
  StoreUnauthorizedError,
  StoreUnexpectedStatusError
} from "./errors.js"
export type { Paged } from "./pages.js"
export type { Answer, Body, Input, Operation, Page, PageShape, PathParams, Query, Route, Row } from "./types.js"
