import { describe, expect, it } from "@effect/vitest"
import { termsOf, topics } from "../../src/research/topics.js"

const sorted = (terms: ReadonlySet<string>) => [...terms].sort()

describe("the terms of a text", () => {
  it("keeps hashtags with #, lower-cases words, and drops stop words, short words and numbers", () => {
    const { phrases, words } = termsOf("The BEST #TypeScript tips of 2026, in 10 minutes: go try 3.5 now")
    expect(sorted(words)).toEqual(["#typescript", "best", "minutes", "tips", "try"])
    // "best #TypeScript tips" is no phrase: the hashtag stands between the words.
    expect(sorted(phrases)).toEqual([])
  })

  it("drops URLs, e-mail addresses and @mentions", () => {
    const { words } = termsOf(
      "Read https://example.com/guide/effect and www.example.org/x or example.net/page, mail bob@example.com, ask @alice.bsky.social"
    )
    expect(sorted(words)).toEqual(["ask", "mail", "read"])
  })

  it("reads curly apostrophes as straight ones and drops the possessive", () => {
    expect(sorted(termsOf("Alice’s guide: don’t skip creator's notes").words)).toEqual([
      "alice",
      "creator",
      "guide",
      "notes",
      "skip"
    ])
  })

  it("pairs adjacent words into phrases, never across punctuation, line breaks or stop words", () => {
    const { phrases } = termsOf("Growth marketing works. Content strategy\nmatters for growth of marketing")
    expect(sorted(phrases)).toEqual(["content strategy", "growth marketing", "marketing works"])
  })

  it("splits any script into words: Cyrillic, Greek, Korean (two letters make a word there)", () => {
    expect(sorted(termsOf("Программирование на Python").words)).toEqual(["python", "программирование"])
    expect(sorted(termsOf("Η τεχνητή νοημοσύνη").words)).toEqual(["νοημοσύνη", "τεχνητή"])
    expect(sorted(termsOf("인공지능 연구 및 개발").words)).toEqual(["개발", "연구", "인공지능"])
  })
})

describe("topics of posts", () => {
  const posts = [
    "Learning #TypeScript with generics https://example.com/x @bob.bsky.social 2026 is great",
    "Generics in TypeScript: the #typescript way. Effect schema rocks",
    "Effect schema for TypeScript GENERICS, generics, generics"
  ]

  it("counts each term once per post, phrases from two posts on, most posts first then by term", () => {
    expect(topics(posts, 20)).toEqual([
      { term: "generics", posts: 3 },
      { term: "#typescript", posts: 2 },
      { term: "effect", posts: 2 },
      { term: "effect schema", posts: 2 },
      { term: "schema", posts: 2 },
      { term: "typescript", posts: 2 },
      { term: "great", posts: 1 },
      { term: "learning", posts: 1 },
      { term: "rocks", posts: 1 }
    ])
  })

  it("answers at most `limit` terms, and nothing for no posts", () => {
    expect(topics(posts, 2)).toEqual([
      { term: "generics", posts: 3 },
      { term: "#typescript", posts: 2 }
    ])
    expect(topics(posts, 0)).toEqual([])
    expect(topics([], 10)).toEqual([])
    expect(topics(["", "the and of", "#2026"], 10)).toEqual([])
  })
})
