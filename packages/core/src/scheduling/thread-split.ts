/**
 * Splits a post's text into the posts of a thread, each at most `max` graphemes (user-perceived characters, as
 * Bluesky counts them). Cuts fall after a sentence where one fits, else after a word, else inside a word that is
 * longer than a whole post. With `numbered`, each part ends with " i/n", counted into its length.
 */
export const splitThread = (text: string, max: number, numbered = false): ReadonlyArray<string> => {
  const trimmed = text.trim()
  if (graphemeCount(trimmed) <= max) return [trimmed]
  // The numbering's room depends on how many parts there are; grow the guess until it holds.
  let room = numbered ? " 9/9".length : 0
  for (;;) {
    const parts = cut(trimmed, max - room)
    if (!numbered) return parts
    const label = ` ${parts.length}/${parts.length}`.length
    if (label <= room) return parts.map((part, i) => `${part} ${i + 1}/${parts.length}`)
    room = label
  }
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" })
const sentences = new Intl.Segmenter(undefined, { granularity: "sentence" })
const words = new Intl.Segmenter(undefined, { granularity: "word" })

/** The length of `text` in graphemes. */
export const graphemeCount = (text: string): number => {
  let count = 0
  for (const _ of graphemes.segment(text)) count++
  return count
}

/** Splits into pieces of at most `max` graphemes, cutting at the coarsest boundary that fits. */
const cut = (text: string, max: number): Array<string> => {
  const parts: Array<string> = []
  let current = ""
  const flush = () => {
    const part = current.trim()
    if (part.length > 0) parts.push(part)
    current = ""
  }
  const add = (piece: string, finer: Intl.Segmenter | undefined) => {
    if (graphemeCount(current + piece) <= max) {
      current += piece
      return
    }
    if (graphemeCount(piece.trim()) <= max) {
      flush()
      current = piece.trimStart()
      return
    }
    // The piece alone is too long: cut it at the next finer boundary, down to graphemes.
    const segmenter = finer ?? graphemes
    const next = finer === sentences ? words : finer === words ? graphemes : undefined
    // A word longer than a post starts a post of its own rather than finishing the one before.
    if (next === undefined) flush()
    for (const { segment } of segmenter.segment(piece)) {
      if (next === undefined && graphemeCount(current + segment) > max) flush()
      if (next === undefined) current += segment
      else add(segment, next)
    }
  }
  for (const { segment } of sentences.segment(text)) add(segment, words)
  flush()
  return parts
}
