import { Either } from "effect"

// Pure text edits for svc_patch_note. A failure is a sentence the agent can act on (it becomes `conflict`).

/** One find/replace edit. */
export interface TextEdit {
  readonly find: string
  readonly replace: string
  readonly replaceAll?: boolean | undefined
}

const occurrences = (text: string, find: string): Array<number> => {
  const found: Array<number> = []
  let at = text.indexOf(find)
  while (at !== -1) {
    found.push(at)
    at = text.indexOf(find, at + find.length)
  }
  return found
}

const squeeze = (text: string) => text.replace(/\s+/g, " ").trim()

const notFoundHint = (text: string, find: string): string => {
  if (text.toLowerCase().includes(find.toLowerCase())) return " (it is there with different capital letters)"
  if (squeeze(text).includes(squeeze(find))) return " (it is there with different spaces or line breaks)"
  return ""
}

/** Applies find/replace edits in order; each `find` must occur exactly once unless `replaceAll`. */
export const applyEdits = (body: string, edits: ReadonlyArray<TextEdit>): Either.Either<string, string> => {
  let text = body
  for (const [index, edit] of edits.entries()) {
    const which = edits.length > 1 ? `edit ${index + 1}: ` : ""
    if (edit.find.length === 0) return Either.left(`${which}find is empty; give the exact passage to replace`)
    const found = occurrences(text, edit.find)
    if (found.length === 0) {
      return Either.left(
        `${which}the passage was not found in the note${notFoundHint(text, edit.find)}${
          index > 0 ? " after the earlier edits" : ""
        }; read the note with svc_get_note_markdown and copy the passage exactly, spaces and line breaks included`
      )
    }
    if (found.length > 1 && !edit.replaceAll) {
      return Either.left(
        `${which}the passage occurs ${found.length} times; include more of the surrounding text so it occurs once, or set replaceAll to true to change every occurrence`
      )
    }
    text = edit.replaceAll ? text.split(edit.find).join(edit.replace) : text.replace(edit.find, () => edit.replace)
  }
  return Either.right(text)
}

interface Hunk {
  readonly header: string
  readonly oldStart: number | undefined
  readonly before: Array<string>
  readonly after: Array<string>
  /** Each hunk line: unchanged (" "), removed ("-") or added ("+"). */
  readonly ops: Array<{ readonly kind: " " | "-" | "+"; readonly text: string }>
}

const HUNK_HEADER = /^@@\s+-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?\s+@@/

const parseDiff = (diff: string): Either.Either<Array<Hunk>, string> => {
  const lines = diff.replace(/\r\n/g, "\n").split("\n")
  if (lines[lines.length - 1] === "") lines.pop()
  const hunks: Array<Hunk> = []
  let current: Hunk | undefined
  for (const [index, line] of lines.entries()) {
    if (line.startsWith("@@")) {
      const match = HUNK_HEADER.exec(line)
      current = {
        header: line.split("@@").slice(0, 2).join("@@").concat("@@"),
        oldStart: match ? Number(match[1]) : undefined,
        before: [],
        after: [],
        ops: []
      }
      hunks.push(current)
      continue
    }
    if (current === undefined) {
      // File headers (---, +++, diff, index) and any preamble before the first hunk.
      continue
    }
    const mark = line[0]
    const rest = line.slice(1)
    if (line === "" || mark === " ") {
      current.before.push(rest)
      current.after.push(rest)
      current.ops.push({ kind: " ", text: rest })
    } else if (mark === "-") {
      current.before.push(rest)
      current.ops.push({ kind: "-", text: rest })
    } else if (mark === "+") {
      current.after.push(rest)
      current.ops.push({ kind: "+", text: rest })
    } else if (mark === "\\") continue
    else {
      return Either.left(
        `line ${index + 1} of the diff starts with ${JSON.stringify(mark)}; inside a hunk every line starts with a space (unchanged), - (removed) or + (added)`
      )
    }
  }
  if (hunks.length === 0) {
    return Either.left(
      "the diff has no hunks; a unified diff has a line like '@@ -3,2 +3,3 @@' followed by lines starting with a space, - or +"
    )
  }
  return Either.right(hunks)
}

const matchesAt = (lines: ReadonlyArray<string>, block: ReadonlyArray<string>, at: number, loose: boolean) => {
  if (at < 0 || at + block.length > lines.length) return false
  for (let i = 0; i < block.length; i++) {
    const a = lines[at + i] ?? ""
    const b = block[i] ?? ""
    if (loose ? a.trimEnd() !== b.trimEnd() : a !== b) return false
  }
  return true
}

const quote = (line: string | undefined) =>
  line === undefined ? "the end of the note" : JSON.stringify(line.length > 80 ? `${line.slice(0, 79)}…` : line)

/**
 * Applies a unified diff to a note. Hunks are found at their stated line, else at the one place their
 * unchanged and removed lines match (trailing spaces ignored as a last resort); line counts in headers are not trusted.
 */
export const applyUnifiedDiff = (body: string, diff: string): Either.Either<string, string> =>
  Either.flatMap(parseDiff(diff), (hunks) => {
    const lines = body.split("\n")
    let offset = 0
    let floor = 0
    for (const [index, hunk] of hunks.entries()) {
      const name = `hunk ${index + 1} (${hunk.header})`
      const base =
        hunk.oldStart === undefined ? undefined : hunk.before.length === 0 ? hunk.oldStart : hunk.oldStart - 1
      const expected = base === undefined ? undefined : base + offset
      let at: number | undefined
      if (hunk.before.length === 0) {
        if (expected === undefined || expected < 0 || expected > lines.length) {
          return Either.left(`${name} only adds lines, so it needs a line number in its header to say where`)
        }
        at = expected
      } else {
        for (const loose of [false, true]) {
          if (expected !== undefined && matchesAt(lines, hunk.before, expected, loose)) {
            at = expected
            break
          }
          const places: Array<number> = []
          for (let p = floor; p + hunk.before.length <= lines.length; p++) {
            if (matchesAt(lines, hunk.before, p, loose)) places.push(p)
          }
          if (places.length > 1) {
            return Either.left(
              `${name} matches the note at ${places.length} places (lines ${places
                .slice(0, 5)
                .map((p) => p + 1)
                .join(", ")}); add more unchanged lines around the change so it matches once`
            )
          }
          if (places.length === 1) {
            at = places[0]
            break
          }
        }
        if (at === undefined) {
          const from = Math.max(0, Math.min(expected ?? floor, lines.length))
          let k = 0
          while (k < hunk.before.length && lines[from + k] === hunk.before[k]) k++
          return Either.left(
            `${name} does not apply: line ${from + k + 1} of the note is ${quote(lines[from + k])} but the diff expects ${quote(
              hunk.before[k]
            )}; read the note again with svc_get_note_markdown and make the diff against its current text`
          )
        }
      }
      // Unchanged lines keep the note's own text (a loose match may differ in trailing spaces).
      const replacement: Array<string> = []
      let cursor = at
      for (const op of hunk.ops) {
        if (op.kind === "+") replacement.push(op.text)
        else {
          if (op.kind === " ") replacement.push(lines[cursor] ?? op.text)
          cursor++
        }
      }
      lines.splice(at, hunk.before.length, ...replacement)
      floor = at + hunk.after.length
      if (base !== undefined) offset = at + hunk.after.length - (base + hunk.before.length)
      else offset = 0
    }
    return Either.right(lines.join("\n"))
  })
