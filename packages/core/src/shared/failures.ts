import type { RateLimited } from "../limits/schema.js"
import {
  type AuthExpired,
  BadListRequest,
  Conflict,
  FieldProblem,
  type Forbidden,
  InvalidInput,
  type MissingWorkspace,
  NotFound,
  type StoreAccessDenied,
  type Unreachable
} from "./errors.js"
import { type NextStepWords, withNextStep } from "./next-step.js"

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

/**
 * `failure` with its next steps said in a face's words: each is appended to its message (`<message>; <step>`), the
 * failure's own and each field problem's, so a face's table reads plain messages.
 */
const spoken = (words: NextStepWords, failure: DomainFailure): DomainFailure => {
  switch (failure._tag) {
    case "NotFound":
      return failure.next === undefined
        ? failure
        : new NotFound({ message: withNextStep(words, failure.message, failure.next) })
    case "Conflict":
      return failure.next === undefined
        ? failure
        : new Conflict({ message: withNextStep(words, failure.message, failure.next) })
    case "BadListRequest":
      return failure.next === undefined
        ? failure
        : new BadListRequest({ message: withNextStep(words, failure.message, failure.next) })
    case "InvalidInput":
      return failure.next === undefined && failure.errors.every((problem) => problem.next === undefined)
        ? failure
        : new InvalidInput({
            message: withNextStep(words, failure.message, failure.next),
            errors: failure.errors.map((problem) =>
              problem.next === undefined
                ? problem
                : new FieldProblem({ path: problem.path, message: withNextStep(words, problem.message, problem.next) })
            )
          })
    default:
      return failure
  }
}

/**
 * A face's answer to a domain failure, looked up in its table by the failure's tag, with the failure's next steps
 * said in the face's `words` (a face cannot answer without saying them).
 */
export const answerFailure =
  <Table extends FailureTable<unknown>>(table: Table, words: NextStepWords) =>
  <E extends DomainFailure>(failure: E): AnswerOf<Table, E> =>
    (table[failure._tag] as (failure: DomainFailure) => AnswerOf<Table, E>)(spoken(words, failure))
