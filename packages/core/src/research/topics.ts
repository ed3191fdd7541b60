import { Schema } from "effect"
import { STOP_WORDS } from "./stop-words.js"

/** A term and how many posts use it. */
export const Topic = Schema.Struct({
  term: Schema.String.annotations({
    description: "A word (lower-case), a hashtag (with #) or a two-word phrase (words joined by one space)."
  }),
  posts: Schema.Int.annotations({ description: "Posts that use it (each post counts once)." })
}).annotations({ description: "A term of the posts' texts and titles." })
export type Topic = typeof Topic.Type

// Removed before words are read, each replaced by a line break so the words either side never form a phrase.
const URLS = /(?:https?:\/\/|www\.)\S+|\b[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+\/\S*/giu
const EMAILS = /\S+@\S+\.\S+/gu
const MENTIONS = /(?<![\p{L}\p{N}_])@[\p{L}\p{N}_.-]+/gu
const HASHTAGS = /(?<![\p{L}\p{N}_&/])#([\p{L}\p{M}\p{N}_]+)/gu

const LETTER = /\p{L}/u
// Scripts written without spaces or with dense syllables: a word of two characters is a whole word there.
const DENSE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u
// Inside a word: a domain or an abbreviation (`example.com`, `e.g`), a mention's rest, a Swedish-style `a:b`.
const NOT_A_TOPIC = /[.@:]/u
// Between two words of a phrase: spaces only (no line break, no punctuation).
const PHRASE_GAP = /^[^\S\n\r]+$/u

const wordSegmenter = new Intl.Segmenter(undefined, { granularity: "word" })

/** The word as a topic (lower-case, `’` as `'`, a possessive `'s` dropped), or null when it is not one. */
const topicWord = (segment: string): string | null => {
  const word = segment
    .toLowerCase()
    .replace(/\u2019/gu, "'")
    .replace(/'s$/u, "")
  if (!LETTER.test(word) || NOT_A_TOPIC.test(word) || STOP_WORDS.has(word)) return null
  const length = [...word].length
  return length >= (DENSE_SCRIPT.test(word) ? 2 : 3) ? word : null
}

/** The distinct terms of one text: its hashtags, its words and its two-word phrases. */
export const termsOf = (
  text: string
): { readonly words: ReadonlySet<string>; readonly phrases: ReadonlySet<string> } => {
  const words = new Set<string>()
  const phrases = new Set<string>()
  const rest = text
    .replace(URLS, "\n")
    .replace(EMAILS, "\n")
    .replace(MENTIONS, "\n")
    .replace(HASHTAGS, (_, tag: string) => {
      if (LETTER.test(tag)) words.add(`#${tag.toLowerCase()}`)
      return "\n"
    })
  let previous: string | null = null
  let gap = ""
  for (const { segment, isWordLike } of wordSegmenter.segment(rest)) {
    if (!isWordLike) {
      gap += segment
      continue
    }
    const word = topicWord(segment)
    if (word !== null) {
      words.add(word)
      if (previous !== null && PHRASE_GAP.test(gap)) phrases.add(`${previous} ${word}`)
    }
    previous = word
    gap = ""
  }
  return { words, phrases }
}

/** Phrases count as topics from this many posts on; a phrase of one post is just a sentence. */
const PHRASE_MIN_POSTS = 2

/**
 * The `limit` commonest terms of the texts (one text per post: its title and text). Terms are hashtags (kept with
 * `#`), words (lower-case, three letters or more, two in Chinese, Japanese, Korean and Thai; stop words, numbers,
 * URLs, e-mail addresses and @mentions dropped; split by `Intl.Segmenter`, so any script works) and two-word phrases
 * of adjacent words used by at least two posts. Each post counts a term once. Sorted by posts, most first, then by
 * term (code unit order).
 */
export const topics = (texts: ReadonlyArray<string>, limit: number): ReadonlyArray<Topic> => {
  const counts = new Map<string, number>()
  const phraseCounts = new Map<string, number>()
  for (const text of texts) {
    const { phrases, words } = termsOf(text)
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1)
    for (const phrase of phrases) phraseCounts.set(phrase, (phraseCounts.get(phrase) ?? 0) + 1)
  }
  for (const [phrase, posts] of phraseCounts) if (posts >= PHRASE_MIN_POSTS) counts.set(phrase, posts)
  return [...counts]
    .map(([term, posts]) => ({ term, posts }))
    .sort((a, b) => b.posts - a.posts || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0))
    .slice(0, Math.max(0, limit))
}
