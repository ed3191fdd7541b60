import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor"
import { type ExecutionResult, GraphQLError, NoSchemaIntrospectionCustomRule, type ValidationContext } from "graphql"
import { isAsyncIterable, type Plugin } from "graphql-yoga"
import type { GraphqlSettingsShape } from "./settings.js"

/**
 * Armor throws its refusals out of validation, which yoga answers as an unexplained 200; reported instead, they are
 * validation errors like graphql's own (`GRAPHQL_VALIDATION_FAILED`, 400), without armor's misleading "Syntax Error" or a cost with decimals.
 */
const asValidationError = {
  propagateOnRejection: false,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) => {
      const message = error.message
        .replace(/^Syntax Error: /, "")
        .replace(/found (\d+\.\d+)/, (_, cost: string) => `found ${Math.ceil(Number(cost))}`)
      context?.reportError(new GraphQLError(message))
    }
  ]
}

/** Directives one document may carry; none of ours take many, so this only stops a flood of them. */
const MAX_DIRECTIVES = 50

// graphql's "Did you mean …?" hints name fields, arguments, types and enum values: with introspection off they
// would let a caller map the schema by guessing, so they are cut from every message (armor's plugin only masks
// field hints in validation, not enum values or variable coercion).
const SUGGESTION = /\s*Did you mean [^?]*\?/g

const withoutSuggestion = <E extends Error>(error: E): E => {
  error.message = error.message.replace(SUGGESTION, "")
  return error
}

const hideSuggestions: Plugin = {
  onValidate:
    () =>
    ({ valid, result, setResult }) => {
      if (!valid) setResult(result.map(withoutSuggestion))
    },
  onExecute: () => ({
    onExecuteDone: ({ result, setResult }) => {
      if (isAsyncIterable(result) || result.errors === undefined) return
      const answer: ExecutionResult = { ...result, errors: result.errors.map(withoutSuggestion) }
      setResult(answer)
    }
  })
}

/** Refuses `__schema` and `__type` at validation, with graphql's own message naming the field. */
const refuseIntrospection: Plugin = {
  onValidate: ({ addValidationRule }) => {
    addValidationRule(NoSchemaIntrospectionCustomRule)
  }
}

/**
 * The abuse limits of the GraphQL face, checked before anything runs: the token count while parsing, then depth
 * (fragments followed), cost, aliases and directives while validating; with introspection off, `__schema`/`__type`
 * and the "Did you mean" hints too. A refusal is an ordinary GraphQL error (`GRAPHQL_PARSE_FAILED` or
 * `GRAPHQL_VALIDATION_FAILED`, status 400), never a 500. The batch limit and the body cap live in yoga.ts and
 * routes.ts.
 */
export const guardPlugins = (settings: GraphqlSettingsShape): ReadonlyArray<Plugin> => [
  EnvelopArmorPlugin({
    maxTokens: { n: settings.maxTokens },
    maxDepth: { n: settings.maxDepth, flattenFragments: true, ...asValidationError },
    costLimit: { maxCost: settings.maxCost, flattenFragments: true, ...asValidationError },
    maxAliases: { n: settings.maxAliases, ...asValidationError },
    maxDirectives: { n: MAX_DIRECTIVES, ...asValidationError },
    // Replaced by hideSuggestions below, which also covers enum values and variables.
    blockFieldSuggestion: { enabled: false }
  }),
  ...(settings.introspection ? [] : [refuseIntrospection, hideSuggestions])
]
