/** What every area shares: domain errors, paging, the `Ids`/`Secrets`/`Transactor` ports, spans and text checks. */
export {
  AuthExpired,
  BadListRequest,
  Conflict,
  type DomainError,
  FieldProblem,
  Forbidden,
  InvalidInput,
  invalid,
  MissingWorkspace,
  NotFound,
  renamePaths,
  StoreAccessDenied,
  Unreachable
} from "./errors.js"
export {
  type AnswerOf,
  answerFailure,
  type DomainFailure,
  type FailureOf,
  type FailureTable,
  type FailureTag
} from "./failures.js"
export { getUninterrupted } from "./cache-get.js"
export { NextStep, type NextStepOf, type NextStepWords, sayNextStep, withNextStep } from "./next-step.js"
export { EXCERPT_LENGTH, excerpt, PROBLEM_MESSAGE_LENGTH, shortProblemMessage } from "./excerpt.js"
export {
  Cursor,
  decodeCursor,
  encodeCursor,
  Limit,
  type Page,
  type PageKey,
  pageOf,
  type PageRequest
} from "./paging.js"
export { CredentialSealer, Ids, Secrets, Transactor } from "./ports.js"
export { type RankedPage, rankedPageOf, type RankKey, type SearchPosition } from "./ranked-paging.js"
export { withSpan } from "./spans.js"
export { NUL_MESSAGE, nulParameter, unstorableInput } from "./storable-text.js"
export { DateInput, dateFilter, now, Timestamp } from "./time.js"
export { trusted } from "./trusted.js"
