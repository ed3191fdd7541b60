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

/**
 * A query parameter taken as text, declared in the OpenAPI document as what it means (a number, a boolean, a choice),
 * so that generated clients type it so. The text stays the wire schema: the store's services read it and answer a bad
 * value with their own 400 message, which a decoding schema would replace.
 */
export const queryMeaning = (meaning: { readonly [keyword: string]: unknown }) =>
  Schema.String.annotations({ jsonSchema: meaning })

/** A query parameter that is one of fixed words. */
export const queryChoice = (choices: ReadonlyArray<string>) => queryMeaning({ type: "string", enum: choices })

/** A query parameter that is `true` or `false`. */
export const queryBoolean = queryMeaning({ type: "boolean" })

const instant = queryMeaning({ anyOf: [{ type: "string" }, { type: "integer", minimum: 0 }] })

/** The query every paged list takes. */
export const listQueryFields = {
  limit: Schema.optional(queryMeaning({ type: "integer", minimum: 1, maximum: 100, default: 25 })).annotations({
    description: "1 to 100, default 25."
  }),
  starting_after: Schema.optional(Schema.String).annotations({ description: "next_cursor of the previous page." }),
  created_after: Schema.optional(instant).annotations({ description: "ISO date or milliseconds." }),
  created_before: Schema.optional(instant).annotations({ description: "ISO date or milliseconds." })
}

/** Refuses query parameters and body fields the endpoint does not know. */
export const strict = { parseOptions: { onExcessProperty: "error" as const } }
