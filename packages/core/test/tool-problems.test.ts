/** Refusals of a tool's input say what the field takes, as an agent needs to fix it. */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { toInvalidInput } from "../src/tools/problems.js"

const problemsOf = <A, I>(schema: Schema.Schema<A, I>, input: unknown) =>
  Either.match(Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "error" })(input), {
    onLeft: (error) => toInvalidInput(error).errors.map((problem) => `${problem.path}: ${problem.message}`),
    onRight: () => []
  })

describe("tool input problems", () => {
  it("name the values of a choice, and of a choice that may be null", () => {
    const Billing = Schema.Literal("one-time", "monthly", "yearly")
    const fields = Schema.Struct({
      billing: Schema.optional(Billing),
      nullable: Schema.optional(Schema.NullOr(Billing))
    })
    expect(problemsOf(fields, { billing: "weekly" })).toEqual([
      'billing: must be one of "one-time", "monthly", "yearly" (got "weekly")'
    ])
    expect(problemsOf(fields, { nullable: "weekly" })).toEqual([
      'nullable: must be one of "one-time", "monthly", "yearly", null (got "weekly")'
    ])
  })
})
