import {
  type DomainFailure,
  decodeCursor,
  InvalidInput,
  invalid,
  type PageRequest,
  renamePaths,
  unstorableInput
} from "@svc/core/shared"
import { toInvalidInput } from "@svc/core/tools"
import { Effect, Either, Schema } from "effect"
import { type BodyError, isJsonObject, parseJson } from "../body.js"
import type { FaceRequest } from "../exchange.js"
import { domainRefusal, StepRefusal } from "../ai-steps/caller.js"

/** An id as the steps take it (a path segment, a body or query field). */
export const StepId = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
  description: "An id with its type prefix, at most 100 characters."
})

/**
 * How a step names the fields the core names otherwise: a map of core paths (the whole path, or its first segment)
 * to the step's field, e.g. `{ boardId: "board_id" }`.
 */
export type FieldNames = Readonly<Record<string, string>>

/** The step's name of the core path `path`: the whole path mapped, else its first segment, else as it is. */
const stepPath = (names: FieldNames, path: string): string => {
  const whole = names[path]
  if (whole !== undefined) return whole
  const [head = "", ...rest] = path.split(".")
  const renamed = names[head]
  return renamed === undefined ? path : [renamed, ...rest].join(".")
}

/** A core failure as a step refusal, with an invalid input's paths in the step's field names. */
export const refusalIn =
  (names: FieldNames) =>
  (error: DomainFailure): StepRefusal =>
    domainRefusal(error instanceof InvalidInput ? renamePaths(error, (path) => stepPath(names, path)) : error)

const bodyRefusal = (error: BodyError) =>
  error._tag === "BodyTooLarge"
    ? new StepRefusal({
        status: 413,
        error: "payload_too_large",
        message: `${error.message}; send at most ${error.maxBytes} bytes`
      })
    : new StepRefusal({ status: 400, error: "bad_request", message: error.reason })

const decodeOrRefuse = <A, I>(schema: Schema.Schema<A, I>, value: unknown) =>
  Effect.mapError(Schema.decodeUnknown(schema, { errors: "all", onExcessProperty: "ignore" })(value), (error) =>
    domainRefusal(toInvalidInput(error))
  )

/**
 * A step's JSON body decoded with `schema`: 413/400 for the bytes, 400 when it is not a JSON object (an empty body
 * reads as `{}`), 422 naming each field that breaks the schema. Fields the step does not know are ignored, as an
 * automation tool sends what its form holds.
 */
export const readBody = <A, I>(request: FaceRequest, maxBytes: number, schema: Schema.Schema<A, I>) =>
  Effect.gen(function* () {
    const text = yield* Effect.mapError(request.readBody(maxBytes), bodyRefusal)
    const json = text.trim() === "" ? {} : parseJson(text)
    if (!isJsonObject(json)) {
      return yield* new StepRefusal({ status: 400, error: "bad_request", message: "the body must be a JSON object" })
    }
    const unstorable = unstorableInput(json)
    if (unstorable !== undefined) return yield* domainRefusal(unstorable)
    return yield* decodeOrRefuse(schema, json)
  })

/**
 * The query string of `url` as a record: a name given once is its text, a name given more than once a list of its
 * texts (`status=posted&status=partial`).
 */
export const queryRecord = (url: string): Readonly<Record<string, string | ReadonlyArray<string>>> => {
  const at = url.indexOf("?")
  const params = new URLSearchParams(at === -1 ? "" : url.slice(at + 1))
  const record: Record<string, string | ReadonlyArray<string>> = {}
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name)
    record[name] = values.length === 1 ? (values[0] ?? "") : values
  }
  return record
}

/** A step's query string decoded with `schema`; 422 naming each parameter that breaks it. */
export const readQuery = <A, I>(url: string, schema: Schema.Schema<A, I>) => decodeOrRefuse(schema, queryRecord(url))

/** The page size of a list step, `limit` 1–100 (default 25), from its query text. */
export const QueryLimit = Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 100)).annotations({
  message: () => "must be a whole number from 1 to 100 (default 25)",
  jsonSchema: {
    type: "integer",
    minimum: 1,
    maximum: 100,
    default: 25,
    description: "Page size, 1 to 100 (default 25)."
  }
})

/** The workspace a query names, as `workspace_id` or, as the spec's steps write it, `workspaceId`. */
const WorkspaceQueryId = Schema.String.pipe(Schema.maxLength(100)).annotations({
  description: "Workspace id (ws_…), from GET /api/me; left out or empty: the default workspace."
})

export const workspaceQueryFields = {
  workspace_id: Schema.optional(WorkspaceQueryId),
  workspaceId: Schema.optional(WorkspaceQueryId.annotations({ description: "The same as workspace_id." }))
}

/** The workspace named by either spelling (`workspace_id` first); an empty value counts as left out. */
export const namedWorkspace = (fields: {
  readonly workspace_id?: string | undefined
  readonly workspaceId?: string | undefined
}): string | undefined => fields.workspace_id || fields.workspaceId || undefined

/** The paging of a list step's query: `limit` and `starting_after` (the `next_cursor` of the page before). */
export const pagingQueryFields = {
  limit: Schema.optional(QueryLimit),
  starting_after: Schema.optional(
    Schema.String.pipe(Schema.maxLength(200)).annotations({ description: "next_cursor of the previous page." })
  )
}

/** A list step's page request; a cursor this service did not issue answers 422 on `starting_after`. */
export const pageRequestOf = (query: {
  readonly limit?: number | undefined
  readonly starting_after?: string | undefined
}): Effect.Effect<PageRequest & { readonly cursor: string | undefined }, StepRefusal> => {
  const cursor = query.starting_after || undefined
  const limit = query.limit ?? 25
  if (cursor === undefined) return Effect.succeed({ limit, after: undefined, cursor })
  return Either.match(decodeCursor(cursor), {
    onLeft: () =>
      Effect.fail(
        domainRefusal(
          invalid("starting_after", "starting_after must be the next_cursor of a page this step answered, unchanged")
        )
      ),
    onRight: (after) => Effect.succeed({ limit, after, cursor })
  })
}
