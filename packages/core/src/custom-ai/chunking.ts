/** Splitting a source's text into the chunks that are indexed and quoted. */

/** A chunk aims at this many characters… */
export const CHUNK_TARGET = 1_000
/** …and never holds more. */
export const CHUNK_MAX = 1_200
// The tail of one chunk repeated at the head of the next, so a sentence cut by a boundary is found whole once.
const OVERLAP_MAX = 200

const SENTENCE_END = /(?<=[.!?…])\s+(?=\S)/u

// A piece longer than CHUNK_MAX with no sentence break: cut at the last space before the limit, else hard.
const cutLong = (piece: string): Array<string> => {
  const parts: Array<string> = []
  let rest = piece
  while (rest.length > CHUNK_MAX) {
    const space = rest.lastIndexOf(" ", CHUNK_TARGET)
    const at = space > CHUNK_TARGET / 2 ? space : CHUNK_TARGET
    parts.push(rest.slice(0, at).trim())
    rest = rest.slice(at).trim()
  }
  if (rest.length > 0) parts.push(rest)
  return parts
}

// Paragraphs first; a paragraph too long for one chunk falls apart into sentences, a sentence too long into cuts.
const pieces = (text: string): Array<string> =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .flatMap((paragraph) =>
      paragraph.length <= CHUNK_MAX ? [paragraph] : paragraph.split(SENTENCE_END).flatMap((s) => cutLong(s.trim()))
    )

const lastSentence = (chunk: string): string => {
  const sentences = chunk.split(SENTENCE_END)
  const last = sentences[sentences.length - 1] ?? ""
  return sentences.length > 1 && last.length <= OVERLAP_MAX ? last : ""
}

/**
 * Cuts text into chunks of about {@link CHUNK_TARGET} characters (at most {@link CHUNK_MAX}) on paragraph, then
 * sentence boundaries; each chunk after the first starts with the last sentence of the one before when it is short.
 */
export const chunkText = (text: string): ReadonlyArray<string> => {
  const chunks: Array<string> = []
  let current = ""
  for (const piece of pieces(text)) {
    const joined = current.length === 0 ? piece : `${current}\n\n${piece}`
    // Pieces are at most CHUNK_MAX long, so a chunk's first piece always fits.
    if (current.length === 0 || joined.length <= CHUNK_TARGET) {
      current = joined
      continue
    }
    chunks.push(current)
    const overlap = lastSentence(current)
    current = overlap.length > 0 && overlap.length + piece.length + 1 <= CHUNK_MAX ? `${overlap} ${piece}` : piece
  }
  if (current.length > 0) chunks.push(current)
  return chunks
}
