/**
 * Readable text from a fetched web page. No HTML parser is installed, so this is a small, careful tag-stripper:
 * it drops what is never read (scripts, styles, navigation), turns block elements into line breaks and decodes
 * entities. Every pattern is linear (no nested quantifiers), so a hostile page cannot stall it.
 */

const NAMED: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  copy: "©",
  reg: "®",
  trade: "™",
  middot: "·",
  bull: "•",
  euro: "€",
  pound: "£"
}

const fromCodePoint = (code: number, raw: string) =>
  Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
    ? String.fromCodePoint(code)
    : raw

/** Decodes character references (`&amp;`, `&#39;`, `&#x27;`); unknown names stay as written. */
export const decodeEntities = (text: string): string =>
  text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/g, (raw, ref: string) => {
    if (ref.startsWith("#x") || ref.startsWith("#X")) return fromCodePoint(Number.parseInt(ref.slice(2), 16), raw)
    if (ref.startsWith("#")) return fromCodePoint(Number.parseInt(ref.slice(1), 10), raw)
    return NAMED[ref.toLowerCase()] ?? raw
  })

/** Text safe to store and index: no NUL or other control characters but tabs and line breaks, `\n` line ends. */
export const cleanText = (text: string): string =>
  text
    .replace(/\r\n?/g, "\n")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()

const DROPPED = ["script", "style", "noscript", "template", "svg", "head", "nav", "footer", "iframe", "object"]
const BLOCK =
  /<\/?(?:p|div|br|hr|h[1-6]|ul|ol|dl|dt|dd|table|thead|tbody|tr|section|article|main|header|aside|blockquote|pre|figure|figcaption|form|fieldset|address|details|summary)\b[^<>]*>/gi

/** The page's `<title>`, decoded and trimmed; none when it has no usable one. */
export const htmlTitle = (html: string): string | null => {
  const match = /<title\b[^<>]*>([^<]*)<\/title\s*>/i.exec(html)
  const title = match?.[1] === undefined ? "" : decodeEntities(match[1]).replace(/\s+/g, " ").trim()
  return title.length === 0 ? null : title
}

// Cuts every `open … close` span with index searches, not a lazy regex: a page full of openers with no closer
// would make a regex rescan to the end from each one. An opener that is never closed drops the rest.
const dropSpans = (text: string, open: string, close: string, isOpener: (next: string) => boolean): string => {
  const lower = text.toLowerCase()
  let out = ""
  let from = 0
  let at = lower.indexOf(open, from)
  while (at !== -1) {
    if (!isOpener(lower.charAt(at + open.length))) {
      at = lower.indexOf(open, at + open.length)
      continue
    }
    out += `${text.slice(from, at)} `
    const end = lower.indexOf(close, at + open.length)
    if (end === -1) return out
    from = lower.indexOf(">", end) === -1 ? text.length : lower.indexOf(">", end) + 1
    at = lower.indexOf(open, from)
  }
  return out + text.slice(from)
}

/** The readable text of an HTML page. */
export const htmlToText = (html: string): string => {
  let text = dropSpans(html, "<!--", "-->", () => true)
  for (const tag of DROPPED) text = dropSpans(text, `<${tag}`, `</${tag}`, (next) => !/[a-z0-9-]/.test(next))
  text = text
    .replace(/<li\b[^<>]*>/gi, "\n- ")
    .replace(/<\/?(?:td|th)\b[^<>]*>/gi, " ")
    .replace(BLOCK, "\n\n")
    .replace(/<[a-zA-Z/!?][^<>]*>/g, "")
  return cleanText(
    decodeEntities(text)
      .split("\n")
      .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, " ").trim())
      .join("\n")
  )
}
