import { Effect } from "effect"
import { invalid } from "../shared/errors.js"

// What the Store group's action-style tools (svc_manage_store_emails, svc_manage_forms) share: one tool, an `action`
// field, and per action the fields it reads.

/** Refuses, by name, the first field given that `action` does not read (besides `storeHandle` and `action`). */
export const onlyFieldsOf = <Action extends string>(
  fieldsOf: Readonly<Record<Action, ReadonlyArray<string>>>,
  action: Action,
  input: Readonly<Record<string, unknown>>
) => {
  const extra = Object.keys(input).find(
    (key) => key !== "storeHandle" && key !== "action" && input[key] !== undefined && !fieldsOf[action].includes(key)
  )
  return extra === undefined ? Effect.void : Effect.fail(invalid(extra, `${extra} is not used by action ${action}`))
}

/**
 * The `action` field's description: what it is, then for each action the fields it reads, from the same table the
 * handler refuses other fields by, so an agent reads in the schema which fields each action takes.
 */
export const describeActions = <Action extends string>(fieldsOf: Readonly<Record<Action, ReadonlyArray<string>>>) => {
  // Actions that read the same fields are named together ("accept, decline: formId"): every byte is in tools/list.
  const byFields = new Map<string, Array<string>>()
  for (const [action, fields] of Object.entries<ReadonlyArray<string>>(fieldsOf)) {
    const said = fields.length === 0 ? "none" : fields.join(", ")
    byFields.set(said, [...(byFields.get(said) ?? []), action])
  }
  return `Each action reads only: ${[...byFields]
    .map(([fields, actions]) => `${actions.join(", ")}: ${fields}`)
    .join("; ")}.`
}

/** The field `action` needs, or a refusal naming it. */
export const need = <A>(value: A | undefined, field: string, action: string) =>
  value === undefined ? Effect.fail(invalid(field, `${field} is needed for action ${action}`)) : Effect.succeed(value)
