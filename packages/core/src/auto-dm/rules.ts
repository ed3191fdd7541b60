/** The parts of a rule checked and used without storage: keywords, templates, links and which replies match. */
import { Either } from "effect"
import { type InvalidInput, invalid } from "../shared/errors.js"
import { excerpt } from "../shared/excerpt.js"
import {
  ANY_KEYWORD,
  type AutoDmRule,
  type Engagement,
  KEYWORD_MAX,
  KEYWORDS_MAX,
  LINK_MAX,
  NAME_MAX,
  TEMPLATE_MAX
} from "./schema.js"

/** The placeholders a template may use. */
export const PLACEHOLDERS = ["name", "handle", "link"] as const

const PLACEHOLDER = /\{([^{}]*)\}/g

/**
 * The keywords as a rule keeps them: trimmed, inner spaces made one, lower-cased, repeats dropped. 1 to 20, each 1 to
 * 100 characters; `*` (every reply and mention) only alone.
 */
export const checkKeywords = (keywords: ReadonlyArray<string>): Either.Either<ReadonlyArray<string>, InvalidInput> => {
  if (keywords.length === 0 || keywords.length > KEYWORDS_MAX) {
    return Either.left(
      invalid("keywords", `give 1 to ${KEYWORDS_MAX} keywords; ["${ANY_KEYWORD}"] answers every reply and mention`)
    )
  }
  const kept: Array<string> = []
  for (const [i, raw] of keywords.entries()) {
    const keyword = raw.trim().replace(/\s+/gu, " ").toLowerCase()
    if (keyword.length === 0 || keyword.length > KEYWORD_MAX) {
      return Either.left(invalid(`keywords.${i}`, `each keyword must be 1 to ${KEYWORD_MAX} characters`))
    }
    if (!kept.includes(keyword)) kept.push(keyword)
  }
  if (kept.includes(ANY_KEYWORD) && kept.length > 1) {
    return Either.left(
      invalid("keywords", `"${ANY_KEYWORD}" matches everything, so it stands alone: ["${ANY_KEYWORD}"] or keywords`)
    )
  }
  return Either.right(kept)
}

/** The placeholders a template uses, or `invalid` naming the first it does not know. */
const placeholdersOf = (template: string): Either.Either<ReadonlySet<string>, InvalidInput> => {
  const used = new Set<string>()
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? ""
    if (!(PLACEHOLDERS as ReadonlyArray<string>).includes(name)) {
      return Either.left(
        invalid(
          "template",
          `unknown placeholder {${excerpt(name, 40)}}; a template may use {name}, {handle} and {link}`
        )
      )
    }
    used.add(name)
  }
  return Either.right(used)
}

/** A template and its link: 1 to 1000 characters, known placeholders only, and a link when `{link}` is used. */
export const checkTemplate = (
  template: string,
  link: string | null
): Either.Either<{ readonly template: string; readonly link: string | null }, InvalidInput> =>
  Either.gen(function* () {
    const text = template.trim()
    if (text.length === 0 || text.length > TEMPLATE_MAX) {
      return yield* Either.left(invalid("template", `template must be 1 to ${TEMPLATE_MAX} characters`))
    }
    const used = yield* placeholdersOf(text)
    if (link !== null) {
      if (link.length > LINK_MAX || !isWebAddress(link)) {
        return yield* Either.left(
          invalid(
            "link",
            `link must be an http(s) address of at most ${LINK_MAX} characters, e.g. https://example.com/guide`
          )
        )
      }
    }
    if (used.has("link") && link === null) {
      return yield* Either.left(invalid("link", "the template uses {link}: give link, the address it stands for"))
    }
    return { template: text, link }
  })

const isWebAddress = (text: string): boolean => {
  if (!URL.canParse(text)) return false
  const url = new URL(text)
  return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.length > 0
}

/** The message for a person: the template with `{name}` (display name, else handle), `{handle}` and `{link}` filled. */
export const renderMessage = (
  template: string,
  link: string | null,
  person: { readonly handle: string; readonly name: string | null }
): string => {
  const name = [...(person.name?.trim() || person.handle)].slice(0, NAME_MAX).join("")
  return template.replace(PLACEHOLDER, (_whole, placeholder: string) =>
    placeholder === "name" ? name : placeholder === "handle" ? `@${person.handle}` : (link ?? "")
  )
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
const patterns = new Map<string, RegExp>()

/** Whether `text` holds `keyword` as a whole word or phrase, in any case (any run of spaces between its words). */
export const hasKeyword = (text: string, keyword: string): boolean => {
  if (keyword === ANY_KEYWORD) return true
  let pattern = patterns.get(keyword)
  if (pattern === undefined) {
    const body = keyword.split(" ").map(escapeRegExp).join("\\s+")
    pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${body}(?![\\p{L}\\p{N}_])`, "iu")
    if (patterns.size > 10_000) patterns.clear()
    patterns.set(keyword, pattern)
  }
  return pattern.test(text.normalize("NFKC"))
}

/**
 * Whether a rule answers a reply or mention: made since the rule was, on the rule's post when it names one (a
 * reply in its thread), and holding one of its keywords.
 */
export const ruleMatches = (rule: AutoDmRule, engagement: Engagement): boolean => {
  if (engagement.at.getTime() < rule.createdAt.getTime()) return false
  if (rule.postRemoteId !== null) {
    const onPost =
      engagement.kind === "reply" &&
      (engagement.parentRemoteId === rule.postRemoteId || engagement.rootRemoteId === rule.postRemoteId)
    if (!onPost) return false
  }
  return rule.keywords.some((keyword) => hasKeyword(engagement.text, keyword))
}
