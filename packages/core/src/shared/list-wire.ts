import { Schema } from "effect"

// The wire shapes of the HTTP APIs' paged lists and query strings, shared by every group of the store API (the
// webhooks group too), so no area borrows them from another.

/**
 * A page of a list. `next_cursor` is always a cursor: pass it as `starting_after` for the next page; on the
 * last page it points after the last row, so a poller can keep it and continue from there later.
 */
export const PageOf = <A, I>(row: Schema.Schema<A, I>) =>
  Schema.Struct({
    ok: Schema.Literal(true),
    data: Schema.Array(row),
    has_more: Schema.Boolean,
    next_cursor: Schema.String.annotations({
      description:
        "Cursor after the last row, for starting_after. On the last page too (keep it to continue later); " +
        "on an empty page, the starting_after asked with, or the start of the list."
    })
  })

// Query parameters are typed as what they mean (a choice of words, a whole number, a boolean), so the contract's own
// clients (`HttpApiClient`, the Effect face of `@svc/client`) type them as the OpenAPI document does. A wrong value is
// refused by the contract's decoding with the message each schema carries, the one the store's own readers give
// (`status must be draft, live or off`): the answer is the same 400 whichever refuses it first.

/** The decoding failure of a query parameter, said as one sentence that names it. */
const refusedWith = (message: string) => ({ message: () => ({ message, override: true }) })

/** A query parameter that is one of fixed words; another is refused with `message`. */
export const queryChoice = <const L extends string>(choices: ReadonlyArray<L>, message: string) =>
  Schema.Literal(...choices).annotations(refusedWith(message))

/** A query parameter that is `true` or `false`, typed as a boolean. */
export const queryBoolean = (name: string) =>
  Schema.BooleanFromString.annotations({
    ...refusedWith(`${name} must be true or false`),
    jsonSchema: { type: "boolean" }
  })

/** The page size, a whole number from 1 to 100 (25 when left out). */
const queryLimit = Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 100)).annotations({
  ...refusedWith("limit must be a whole number from 1 to 100 (default 25)"),
  jsonSchema: { type: "integer", minimum: 1, maximum: 100, default: 25 }
})

const milliseconds = Schema.String.pipe(Schema.pattern(/^\s*\d{1,16}\s*$/))

/**
 * A bound of the creation window: an ISO date or milliseconds since 1970, typed `string | number`. The store's list
 * readers check the date itself (`2026-02-30` is refused there, in the same words).
 */
const queryInstant = (name: string) =>
  Schema.Union(Schema.compose(milliseconds, Schema.NumberFromString), Schema.String).annotations({
    ...refusedWith(`${name} must be an ISO date or milliseconds since 1970`),
    jsonSchema: { anyOf: [{ type: "string" }, { type: "integer", minimum: 0 }] }
  })

/** The query every paged list takes. */
export const listQueryFields = {
  limit: Schema.optional(queryLimit).annotations({ description: "1 to 100, default 25." }),
  starting_after: Schema.optional(Schema.String).annotations({ description: "next_cursor of the previous page." }),
  created_after: Schema.optional(queryInstant("created_after")).annotations({
    description: "ISO date or milliseconds."
  }),
  created_before: Schema.optional(queryInstant("created_before")).annotations({
    description: "ISO date or milliseconds."
  })
}

/** Refuses query parameters and body fields the endpoint does not know. */
export const strict = { parseOptions: { onExcessProperty: "error" as const } }
