/**
 * Reading `SKILL.md` files of the open Agent Skills format (agentskills.io): YAML front matter between `---` lines,
 * holding at least `name` and `description`, then a Markdown body. Nothing here rewrites the text: a skill is stored
 * and exported exactly as imported, so parsing only checks it and reads its fields.
 */
import { Either } from "effect"
import { isMap, parseDocument } from "yaml"
import { FieldProblem, InvalidInput, invalid } from "../shared/errors.js"
import { unstorableText } from "../shared/storable-text.js"
import { SKILL_COMPATIBILITY_MAX, SKILL_DESCRIPTION_MAX, SKILL_NAME_MAX, SKILL_TEXT_MAX } from "./schema.js"

/** A `SKILL.md` read: its two required fields, every front-matter key, and the body after the front matter. */
export interface SkillFile {
  readonly name: string
  readonly description: string
  /** Every key of the front matter (`name` and `description` included), as JSON values. */
  readonly frontMatter: Readonly<Record<string, unknown>>
  /** The Markdown after the closing `---` line, as written. */
  readonly body: string
}

// A byte order mark may lead the file; the opening line is `---` alone (trailing blanks allowed), LF or CRLF.
const OPENING = /^\uFEFF?---[ \t]*\r?\n/
const CLOSING = /(?:^|\n)---[ \t]*(?:\r?\n|\r?$)/
const NAME_CHARACTERS = /^[a-z0-9-]+$/

// The YAML parser recurses per level of flow nesting and dies (stack, then memory) on thousands of brackets;
// no real front matter nests past a handful, so deeper text is refused before it is parsed.
const FLOW_DEPTH_MAX = 32

const flowDepthOf = (yaml: string): number => {
  let depth = 0
  let deepest = 0
  for (const ch of yaml) {
    if (ch === "[" || ch === "{") deepest = Math.max(deepest, ++depth)
    else if ((ch === "]" || ch === "}") && depth > 0) depth -= 1
  }
  return deepest
}

const FORMAT_HINT =
  "a SKILL.md starts with a line ---, then YAML front matter with name and description, then a line ---, then the Markdown body"

/** Why `name` breaks the Agent Skills rules, else `undefined`. */
export const skillNameProblem = (name: string): string | undefined => {
  if (name.length === 0 || name.length > SKILL_NAME_MAX) return `name must be 1 to ${SKILL_NAME_MAX} characters`
  if (!NAME_CHARACTERS.test(name)) return "name may hold only lowercase letters a-z, digits and hyphens"
  if (name.startsWith("-") || name.endsWith("-")) return "name must not start or end with a hyphen"
  if (name.includes("--")) return "name must not contain two hyphens in a row (--)"
  return undefined
}

const fieldProblems = (fields: Readonly<Record<string, unknown>>): ReadonlyArray<FieldProblem> => {
  const problems: Array<FieldProblem> = []
  const { name, description, compatibility } = fields
  if (typeof name !== "string") {
    problems.push(new FieldProblem({ path: "name", message: "the front matter needs name, a string (e.g. pdf-tools)" }))
  } else {
    const problem = skillNameProblem(name)
    if (problem !== undefined) problems.push(new FieldProblem({ path: "name", message: problem }))
  }
  if (typeof description !== "string" || description.trim().length === 0) {
    problems.push(
      new FieldProblem({
        path: "description",
        message: "the front matter needs description, a non-empty string saying what the skill does and when to use it"
      })
    )
  } else if (description.length > SKILL_DESCRIPTION_MAX) {
    problems.push(
      new FieldProblem({
        path: "description",
        message: `description must be at most ${SKILL_DESCRIPTION_MAX} characters (it has ${description.length})`
      })
    )
  }
  if (
    compatibility !== undefined &&
    (typeof compatibility !== "string" || compatibility.length > SKILL_COMPATIBILITY_MAX)
  ) {
    problems.push(
      new FieldProblem({
        path: "compatibility",
        message: `compatibility, when given, must be a string of at most ${SKILL_COMPATIBILITY_MAX} characters`
      })
    )
  }
  return problems
}

// `toJSON` turns YAML values into JSON ones (keys to strings); the round trip through text drops what JSON cannot
// carry (`.inf` becomes null), so answers hold plain data only. Too many aliases throw.
const plainFrontMatter = (yaml: string): Either.Either<Readonly<Record<string, unknown>>, InvalidInput> => {
  try {
    const document = parseDocument(yaml, { logLevel: "silent", uniqueKeys: true })
    const [error] = document.errors
    if (error !== undefined) {
      const reason = error.message.split("\n")[0] ?? error.code
      return Either.left(invalid("frontMatter", `the front matter is not valid YAML: ${reason.slice(0, 300)}`))
    }
    if (!isMap(document.contents)) {
      return Either.left(
        invalid("frontMatter", `the front matter must be a YAML mapping (key: value lines); ${FORMAT_HINT}`)
      )
    }
    const json: unknown = JSON.parse(JSON.stringify(document.toJSON()))
    return typeof json === "object" && json !== null && !Array.isArray(json)
      ? Either.right(json as Readonly<Record<string, unknown>>)
      : Either.left(invalid("frontMatter", "the front matter must be a YAML mapping (key: value lines)"))
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message.split("\n")[0] : "unreadable"
    return Either.left(invalid("frontMatter", `the front matter could not be read: ${reason?.slice(0, 300)}`))
  }
}

/** Reads and checks a `SKILL.md`; each broken rule is an `invalid` naming its field (`text`, `frontMatter`, `name`, `description`). */
export const parseSkillFile = (text: string): Either.Either<SkillFile, InvalidInput> => {
  if (text.length > SKILL_TEXT_MAX) {
    return Either.left(
      invalid("text", `a SKILL.md may be at most ${SKILL_TEXT_MAX} characters (this one has ${text.length})`)
    )
  }
  const unstorable = unstorableText(text)
  if (unstorable !== undefined) return Either.left(invalid("text", `the SKILL.md ${unstorable}`))
  const opening = OPENING.exec(text)
  if (opening === null) return Either.left(invalid("frontMatter", `the front matter is missing: ${FORMAT_HINT}`))
  const rest = text.slice(opening[0].length)
  const closing = CLOSING.exec(rest)
  if (closing === null) {
    return Either.left(invalid("frontMatter", `the front matter has no closing --- line: ${FORMAT_HINT}`))
  }
  // A match after a line break keeps that break with the YAML, so the YAML's last line stays whole.
  const yaml = rest.slice(0, closing[0].startsWith("\n") ? closing.index + 1 : closing.index)
  if (flowDepthOf(yaml) > FLOW_DEPTH_MAX) {
    return Either.left(invalid("frontMatter", `the front matter nests brackets deeper than ${FLOW_DEPTH_MAX} levels`))
  }
  return Either.flatMap(plainFrontMatter(yaml), (frontMatter) => {
    const problems = fieldProblems(frontMatter)
    const { name, description } = frontMatter
    if (problems.length > 0 || typeof name !== "string" || typeof description !== "string") {
      return Either.left(new InvalidInput({ message: problems.map((p) => p.message).join("; "), errors: problems }))
    }
    return Either.right({ name, description, frontMatter, body: rest.slice(closing.index + closing[0].length) })
  })
}

/** Where an exported skill goes in a skills folder: `<name>/SKILL.md` (the format wants the folder named as the skill). */
export const skillFilePath = (name: string): string => `${name}/SKILL.md`

/** The size of `text` in UTF-8 bytes, as a saved `SKILL.md` weighs (text that is not well-formed is refused before). */
export const utf8Length = (text: string): number => {
  let bytes = 0
  for (const ch of text) {
    const point = ch.codePointAt(0) ?? 0
    bytes += point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4
  }
  return bytes
}
