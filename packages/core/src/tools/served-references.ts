import { specToolsByName } from "./spec-names.js"

/**
 * Tool texts name other tools to guide an agent ("Read it with svc_read_board."), but a caller served a toolset, or
 * reads only, may not be served the tool named, and calling it wastes a turn. So each served list carries its own
 * texts: a sentence naming a tool the list does not serve is left out. Texts are written for this: a sentence that
 * names a tool says nothing else an agent needs (a field's first sentence names none).
 */

const TOOL_NAME = /\bsvc_[a-z0-9_]+/g

// Sentences end at . ! or ? before a space; "e.g." and "i.e." end none.
const SENTENCE_END = /(?<=(?<!\be\.g|\bi\.e)[.!?])\s+/

type Served = ReadonlySet<string>

const namesUnserved = (text: string, served: Served): boolean => {
  for (const [name] of text.matchAll(TOOL_NAME)) if (specToolsByName.has(name) && !served.has(name)) return true
  return false
}

/** `text` without its sentences that name a tool `served` does not hold; the same string when there are none. */
export const withoutUnservedReferences = (text: string, served: Served): string =>
  namesUnserved(text, served)
    ? text
        .split(SENTENCE_END)
        .filter((sentence) => !namesUnserved(sentence, served))
        .join(" ")
    : text

/** A JSON Schema with every `description` pruned as above; the same object when nothing changes. */
export const schemaWithoutUnservedReferences = <S>(schema: S, served: Served): S => {
  if (Array.isArray(schema)) {
    const members = schema.map((member) => schemaWithoutUnservedReferences(member, served))
    return (members.some((member, index) => member !== schema[index]) ? members : schema) as S
  }
  if (typeof schema !== "object" || schema === null) return schema
  let changed = false
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    const next =
      key === "description" && typeof value === "string"
        ? withoutUnservedReferences(value, served)
        : schemaWithoutUnservedReferences(value, served)
    if (next !== value) changed = true
    out[key] = next
  }
  return (changed ? out : schema) as S
}
