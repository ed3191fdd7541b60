/** The answer a Custom AI gives with no language model: quotes of its best-matching knowledge, with sources. */
import type { KnowledgePassage } from "./knowledge-schema.js"

/** An answer built only from the assistant's own knowledge. */
export interface ExtractiveAnswer {
  readonly text: string
  readonly citations: ReadonlyArray<{
    readonly sourceId: string
    readonly sourceTitle: string
    readonly url: string | null
  }>
}

/** The sentence every extractive answer starts with. */
export const NO_MODEL_SENTENCE =
  "No language model is configured, so this answer quotes this assistant's knowledge instead of writing a reply."
/** What the answer says when no passage matches. */
export const NOTHING_FOUND_SENTENCE = "I found nothing in my knowledge on that."

// Passages quoted, and the longest quote of each.
const QUOTED_PASSAGES = 3
const QUOTE_MAX = 500

const STOP_WORDS = new Set(
  "a an and are as at be but by can could did do does for from had has have how i if in into is it its me my no not of on or our so than that the their them then there these they this to was we were what when where which who why will with would you your about".split(
    " "
  )
)

/** The words of a query worth matching (letters and digits, lower case, no common words), at most 32. */
export const queryWords = (query: string): ReadonlyArray<string> => {
  const words = (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP_WORDS.has(w))
  return [...new Set(words)].slice(0, 32)
}

// A rough stem, enough to see "refunds" in a question about "refund": full-text search found the passage with
// the real English stemmer; this only picks which of its sentences to quote.
const stem = (word: string) => word.replace(/(ing|ed|es|s)$/u, "").slice(0, 6)

const sentencesOf = (text: string): ReadonlyArray<string> =>
  text
    .replace(/\s+/gu, " ")
    .trim()
    .split(/(?<=[.!?…])\s+(?=\S)/u)
    .filter((s) => s.length > 0)

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`)

/** The sentences of a passage that hold a query word, in their order, bounded; the opening when none do. */
const quoteOf = (passage: string, stems: ReadonlySet<string>): string => {
  const sentences = sentencesOf(passage)
  const matching = sentences.filter((s) =>
    (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).some((w) => stems.has(stem(w)))
  )
  const chosen = matching.length > 0 ? matching : sentences.slice(0, 2)
  let quote = ""
  for (const sentence of chosen) {
    const next = quote.length === 0 ? sentence : `${quote} … ${sentence}`
    if (next.length > QUOTE_MAX) return quote.length === 0 ? clip(sentence, QUOTE_MAX) : quote
    quote = next
  }
  return quote
}

/**
 * Quotes the best passages (their sentences that match the question, bounded) each with its source, after one
 * sentence saying no language model is configured. It adds no words of its own beyond those two framing lines.
 */
export const extractiveAnswer = (question: string, passages: ReadonlyArray<KnowledgePassage>): ExtractiveAnswer => {
  if (passages.length === 0) return { text: `${NO_MODEL_SENTENCE} ${NOTHING_FOUND_SENTENCE}`, citations: [] }
  const stems = new Set(queryWords(question).map(stem))
  const best = passages.slice(0, QUOTED_PASSAGES)
  const quotes = best.map((p) => {
    const source = p.url === null ? p.sourceTitle : `${p.sourceTitle} (${p.url})`
    return `> ${quoteOf(p.text, stems)}\n— ${source}`
  })
  const citations: Array<ExtractiveAnswer["citations"][number]> = []
  for (const p of best) {
    if (!citations.some((c) => c.sourceId === p.sourceId)) {
      citations.push({ sourceId: p.sourceId, sourceTitle: p.sourceTitle, url: p.url })
    }
  }
  return { text: [NO_MODEL_SENTENCE, ...quotes].join("\n\n"), citations }
}
