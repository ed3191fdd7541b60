/**
 * The NUL character (`\u0000`) in input. PostgreSQL stores no NUL in text or JSON, so input holding one would
 * reach the database and fail there as an internal error; every edge that writes text refuses it first.
 */
import { FieldProblem, InvalidInput } from "./errors.js"

const NUL = "\u0000"

/** What a refused field is told. */
export const NUL_MESSAGE = "must not contain the NUL character (\\u0000)"

/** Whether a value (text, or JSON-like data at any depth, field names included) holds a NUL. */
// A walk that allocates nothing: tool calls run it on every input, and almost none holds a NUL.
export const holdsNul = (value: unknown): boolean => {
  if (typeof value === "string") return value.includes(NUL)
  if (typeof value !== "object" || value === null) return false
  if (Array.isArray(value)) {
    for (const item of value) if (holdsNul(item)) return true
    return false
  }
  for (const key in value) {
    if (Object.hasOwn(value, key) && (key.includes(NUL) || holdsNul((value as Record<string, unknown>)[key])))
      return true
  }
  return false
}

/**
 * The name of the first parameter (of a query or a form) holding a NUL in its name or value, escaped so a page or an
 * error can show it, else `undefined`. Parameters are checked before any of them reaches a lookup or a stored row.
 */
export const nulParameter = (pairs: Iterable<readonly [string, string]>): string | undefined => {
  for (const [name, value] of pairs) {
    if (name.includes(NUL) || value.includes(NUL)) return JSON.stringify(name).slice(1, -1)
  }
  return undefined
}

const nulPaths = (value: unknown, path: string, out: Array<FieldProblem>): void => {
  const add = (at: string) => out.push(new FieldProblem({ path: at, message: NUL_MESSAGE }))
  if (typeof value === "string") {
    if (value.includes(NUL)) add(path)
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      nulPaths(item, path === "" ? String(index) : `${path}.${index}`, out)
    })
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const at = path === "" ? key : `${path}.${key}`
      if (key.includes(NUL)) add(at)
      else nulPaths(item, at, out)
    }
  }
}

/**
 * `invalid` for input holding the NUL character anywhere (a value or a field name), one problem per place, else
 * `undefined`. JSON can carry it in any string, so it is checked over the whole input, not per field.
 */
export const nulInput = (input: unknown): InvalidInput | undefined => {
  if (!holdsNul(input)) return undefined
  const errors: Array<FieldProblem> = []
  nulPaths(input, "", errors)
  const first = errors[0]
  if (first === undefined) return undefined
  return new InvalidInput({
    message: `${first.path || "the input"} ${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""}`,
    errors
  })
}
