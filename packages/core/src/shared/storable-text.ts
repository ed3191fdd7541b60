/**
 * Text PostgreSQL cannot store as given: the NUL character (`\u0000`), which no text or JSON value may hold, and
 * half of a UTF-16 surrogate pair alone (`\ud800` to `\udfff`), which JSON text can carry as an escape but which is
 * no Unicode character (a JSON column refuses it; a text column would store U+FFFD in its place). Input holding
 * either would reach the database and fail there as an internal error, or change silently; every edge that writes
 * text refuses it first.
 */
import { FieldProblem, InvalidInput } from "./errors.js"

const NUL = "\u0000"
// With the `u` flag a surrogate pair is one code point, so this matches only a half standing alone.
const LONE_SURROGATE = /\p{Cs}/u

/** What a field holding a NUL is told. */
export const NUL_MESSAGE = "must not contain the NUL character (\\u0000)"

/** What a field holding half of a surrogate pair alone is told. */
export const LONE_SURROGATE_MESSAGE =
  "must be well-formed Unicode: it holds half of a UTF-16 surrogate pair (\\ud800 to \\udfff) alone"

/** Why PostgreSQL could not store `text` as given, else `undefined`. */
export const unstorableText = (text: string): string | undefined =>
  text.includes(NUL) ? NUL_MESSAGE : LONE_SURROGATE.test(text) ? LONE_SURROGATE_MESSAGE : undefined

const isUnstorable = (text: string): boolean => unstorableText(text) !== undefined

/**
 * How deep input may nest (objects and arrays in one another). No tool input comes near it; a body of nothing but
 * brackets would otherwise overflow the stack of every recursive step after the parse (a 500).
 */
export const MAX_INPUT_DEPTH = 64

/** What a value nested past {@link MAX_INPUT_DEPTH} is told. */
export const TOO_DEEP_MESSAGE = `nests deeper than ${MAX_INPUT_DEPTH} levels of objects and arrays`

/**
 * Whether a value (text, or JSON-like data, field names included) holds text that cannot be stored, or nests past
 * {@link MAX_INPUT_DEPTH}.
 */
// A walk that allocates nothing: tool calls run it on every input, and almost none holds such text.
export const holdsUnstorableText = (value: unknown, depth = 0): boolean => {
  if (typeof value === "string") return isUnstorable(value)
  if (typeof value !== "object" || value === null) return false
  if (depth >= MAX_INPUT_DEPTH) return true
  if (Array.isArray(value)) {
    for (const item of value) if (holdsUnstorableText(item, depth + 1)) return true
    return false
  }
  for (const key in value) {
    if (
      Object.hasOwn(value, key) &&
      (isUnstorable(key) || holdsUnstorableText((value as Record<string, unknown>)[key], depth + 1))
    )
      return true
  }
  return false
}

/**
 * The name of the first parameter (of a query or a form) holding a NUL in its name or value, escaped so a page or an
 * error can show it, else `undefined`. Parameters are checked before any of them reaches a lookup or a stored row.
 * Percent-decoding cannot make half a surrogate pair (bytes that are not UTF-8 decode to U+FFFD), so a NUL is all
 * a parameter can hold that the database refuses.
 */
export const nulParameter = (pairs: Iterable<readonly [string, string]>): string | undefined => {
  for (const [name, value] of pairs) {
    if (name.includes(NUL) || value.includes(NUL)) return JSON.stringify(name).slice(1, -1)
  }
  return undefined
}

const unstorablePaths = (value: unknown, path: string, out: Array<FieldProblem>, depth: number): void => {
  const check = (text: string, at: string) => {
    const message = unstorableText(text)
    if (message !== undefined) out.push(new FieldProblem({ path: at, message }))
    return message !== undefined
  }
  if (typeof value === "string") {
    check(value, path)
  } else if (typeof value === "object" && value !== null && depth >= MAX_INPUT_DEPTH) {
    out.push(new FieldProblem({ path, message: TOO_DEEP_MESSAGE }))
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      unstorablePaths(item, path === "" ? String(index) : `${path}.${index}`, out, depth + 1)
    })
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const at = path === "" ? key : `${path}.${key}`
      if (!check(key, at)) unstorablePaths(item, at, out, depth + 1)
    }
  }
}

/**
 * `invalid` for input holding text that cannot be stored anywhere (a value or a field name), or nesting past
 * {@link MAX_INPUT_DEPTH}, one problem per place, else `undefined`. JSON can carry such text in any string, so the
 * whole input is checked, not each field.
 */
export const unstorableInput = (input: unknown): InvalidInput | undefined => {
  if (!holdsUnstorableText(input)) return undefined
  const errors: Array<FieldProblem> = []
  unstorablePaths(input, "", errors, 0)
  const first = errors[0]
  if (first === undefined) return undefined
  return new InvalidInput({
    message: `${first.path || "the input"} ${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""}`,
    errors
  })
}
