/**
 * Short quotes of what a caller sent, for error messages. An answer names the field and the rule; a value is
 * quoted only as far as it helps to find it, so a huge value never comes back whole (a 100 MB `name` once came back
 * twice in a 200 MB answer).
 */

/** The longest part of a caller's value an error message quotes, in UTF-16 units. */
export const EXCERPT_LENGTH = 80

/** `text` when it is at most `max` long, else its start and an ellipsis. */
export const excerpt = (text: string, max: number = EXCERPT_LENGTH): string => {
  if (text.length <= max) return text
  // Cut before half a surrogate pair: the rest of the answer stays well-formed Unicode.
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max
  return `${text.slice(0, end)}…`
}

// The platform's schema messages end in the value itself: "Expected <rule>, actual <value>".
const EXPECTED_ACTUAL = /^(Expected [\s\S]*?), actual ([\s\S]*)$/

/** The longest problem message kept whole (the rule; a quoted value is cut to {@link EXCERPT_LENGTH} first). */
export const PROBLEM_MESSAGE_LENGTH = 300

/** A schema problem message with its quoted value cut to an excerpt, and the whole kept short. */
export const shortProblemMessage = (message: string): string => {
  const parts = EXPECTED_ACTUAL.exec(message)
  const short = parts === null ? message : `${parts[1]}, actual ${excerpt(parts[2] ?? "")}`
  return excerpt(short, PROBLEM_MESSAGE_LENGTH)
}
