import type { RateLimited } from "../limits/schema.js"
import type {
  AuthExpired,
  BadListRequest,
  Conflict,
  Forbidden,
  InvalidInput,
  MissingWorkspace,
  NotFound,
  StoreAccessDenied,
  Unreachable
} from "./errors.js"

/**
 * Every tagged error a use case may fail with that reaches a face. Each face answers all of them through one
 * `FailureTable`, so a member added here fails to compile until every face says how it answers it.
 * (Refusals of a face's own gate — `UnknownTool`, `InsufficientScope`, `ScopeNotGranted` — are answered by the
 * face's protocol before any use case runs, and are not domain failures.)
 */
export type DomainFailure =
  | InvalidInput
  | NotFound
  | Conflict
  | Forbidden
  | AuthExpired
  | Unreachable
  | MissingWorkspace
  | StoreAccessDenied
  | BadListRequest
  | RateLimited

/** The tag of a domain failure. */
export type FailureTag = DomainFailure["_tag"]

/** The domain failure with tag `K`. */
export type FailureOf<K extends FailureTag> = Extract<DomainFailure, { readonly _tag: K }>

/**
 * How one face answers each domain failure: one entry per tag, each given the failure with that tag. Declare a
 * table with `satisfies FailureTable<Answer>` to keep each entry's own answer type for `answerFailure`.
 */
export type FailureTable<Answer> = {
  readonly [K in FailureTag]: (failure: FailureOf<K>) => Answer
}

/** The answer `table` gives for failures `E`: the union of the answers of their tags' entries. */
export type AnswerOf<Table extends FailureTable<unknown>, E extends DomainFailure> = ReturnType<Table[E["_tag"]]>

/** A face's answer to a domain failure, looked up in its table by the failure's tag. */
export const answerFailure =
  <Table extends FailureTable<unknown>>(table: Table) =>
  <E extends DomainFailure>(failure: E): AnswerOf<Table, E> =>
    (table[failure._tag] as (failure: E) => AnswerOf<Table, E>)(failure)
