/**
 * Feeds as the RSS source reads them: RSS 2.0/0.9x, Atom, RDF and JSON Feed parsed by `feedsmith` into one shape, the
 * feed a web page names (`<link rel="alternate">`, read with `htmlparser2`), and item HTML as plain text
 * (`html-to-text`).
 */
import { type AnyFeed, parseFeed } from "feedsmith"
import { convert } from "html-to-text"
import { Parser } from "htmlparser2"

/** One item of a feed. */
export interface FeedEntry {
  /** The item's guid (RSS), id (Atom, JSON Feed) or else its link. */
  readonly id: string
  readonly url: string | null
  readonly title: string | null
  /** The summary (or, without one, the content) as plain text. */
  readonly text: string
  readonly author: string | null
  readonly publishedAt: Date | null
  /** Enclosures and attachments (images, audio). */
  readonly mediaCount: number
}

/** A feed in the one shape all formats are read into. */
export interface ParsedFeed {
  readonly title: string
  readonly description: string | null
  /** The site the feed belongs to (RSS `link`, Atom `rel=alternate`, JSON Feed `home_page_url`). */
  readonly homeUrl: string | null
  readonly imageUrl: string | null
  /** The generator the feed names (`Substack` on Substack publications, custom domains included). */
  readonly generator: string | null
  readonly entries: ReadonlyArray<FeedEntry>
}

/** The longest text kept for an item (plain text, in characters); longer summaries end with "…". */
export const TEXT_MAX = 4000

/** The feed `body` holds, or undefined when it is no feed (an HTML page, anything else). */
export const readFeed = (body: string): ParsedFeed | undefined => {
  let parsed: AnyFeed<string>
  try {
    parsed = parseFeed<string>(body)
  } catch {
    return undefined
  }
  switch (parsed.format) {
    case "rss": {
      const feed = parsed.feed
      return {
        title: plain(feed.title ?? ""),
        description: optionalPlain(feed.description),
        homeUrl: feed.link ?? null,
        imageUrl: feed.image?.url ?? feed.itunes?.image ?? null,
        generator: feed.generator ?? null,
        entries: (feed.items ?? []).map((item) => {
          const url = item.link ?? (item.guid?.isPermaLink === true ? item.guid.value : undefined) ?? null
          return {
            id: item.guid?.value ?? url ?? item.title ?? "",
            url,
            title: optionalPlain(item.title),
            text: summary(item.description ?? item.content?.encoded),
            author: item.dc?.creators?.[0] ?? item.authors?.[0]?.name ?? item.authors?.[0]?.email ?? null,
            publishedAt: dateOf(item.pubDate ?? item.dc?.dates?.[0]),
            mediaCount: item.enclosures?.length ?? 0
          }
        })
      }
    }
    case "atom": {
      const feed = parsed.feed
      return {
        title: plain(feed.title?.value ?? ""),
        description: optionalPlain(feed.subtitle?.value),
        homeUrl: alternateOf(feed.links),
        imageUrl: feed.logo ?? feed.icon ?? null,
        generator: feed.generator?.text ?? null,
        entries: (feed.entries ?? []).map((entry) => {
          const url = alternateOf(entry.links)
          return {
            id: entry.id ?? url ?? "",
            url,
            title: optionalPlain(entry.title?.value),
            text: summary(entry.summary?.value ?? entry.content?.value),
            author: entry.authors?.[0]?.name ?? feed.authors?.[0]?.name ?? null,
            publishedAt: dateOf(entry.published ?? entry.updated),
            mediaCount: (entry.links ?? []).filter((link) => link.rel === "enclosure").length
          }
        })
      }
    }
    case "rdf": {
      const feed = parsed.feed
      return {
        title: plain(feed.title ?? ""),
        description: optionalPlain(feed.description),
        homeUrl: feed.link ?? null,
        imageUrl: feed.image?.url ?? null,
        generator: null,
        entries: (feed.items ?? []).map((item) => ({
          id: item.rdf?.about ?? item.link ?? item.title ?? "",
          url: item.link ?? null,
          title: optionalPlain(item.title),
          text: summary(item.description ?? item.content?.encoded),
          author: item.dc?.creators?.[0] ?? null,
          publishedAt: dateOf(item.dc?.dates?.[0]),
          mediaCount: 0
        }))
      }
    }
    case "json": {
      const feed = parsed.feed
      return {
        title: plain(feed.title ?? ""),
        description: optionalPlain(feed.description),
        homeUrl: feed.home_page_url ?? null,
        imageUrl: feed.icon ?? feed.favicon ?? null,
        generator: null,
        entries: (feed.items ?? []).map((item) => ({
          id: item.id ?? item.url ?? "",
          url: item.url ?? item.external_url ?? null,
          title: optionalPlain(item.title),
          text:
            item.summary !== undefined || item.content_html !== undefined
              ? summary(item.summary ?? item.content_html)
              : clip((item.content_text ?? "").trim()),
          author: item.authors?.[0]?.name ?? feed.authors?.[0]?.name ?? null,
          publishedAt: dateOf(item.date_published ?? item.date_modified),
          mediaCount: item.attachments?.length ?? 0
        }))
      }
    }
  }
}

const FEED_TYPES = new Set([
  "application/rss+xml",
  "application/atom+xml",
  "application/feed+json",
  "application/rdf+xml"
])

/** The feeds an HTML page names with `<link rel="alternate" type="application/rss+xml|atom+xml|feed+json">`, absolute. */
export const feedLinksOf = (html: string, pageUrl: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  const parser = new Parser({
    onopentag: (name, attributes) => {
      if (name !== "link") return
      const rel = (attributes.rel ?? "").toLowerCase().split(/\s+/)
      const type = (attributes.type ?? "").toLowerCase().split(";")[0]?.trim() ?? ""
      const href = attributes.href?.trim()
      if (!rel.includes("alternate") || !FEED_TYPES.has(type) || href === undefined || href === "") return
      try {
        const absolute = new URL(href, pageUrl)
        if (absolute.protocol === "http:" || absolute.protocol === "https:") found.push(absolute.href)
      } catch {
        // An href that is no URL names no feed.
      }
    }
  })
  parser.write(html)
  parser.end()
  return [...new Set(found)]
}

const alternateOf = (links: ReadonlyArray<{ readonly href?: string; readonly rel?: string }> | undefined) => {
  const all = links ?? []
  const link = all.find((l) => l.rel === "alternate" && l.href !== undefined) ?? all.find((l) => l.rel === undefined)
  return link?.href ?? null
}

const dateOf = (text: string | undefined): Date | null => {
  if (text === undefined) return null
  const millis = Date.parse(text)
  return Number.isFinite(millis) ? new Date(millis) : null
}

const clip = (text: string) => (text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1).trimEnd()}…` : text)

/** HTML (or plain text, which passes through) as plain text on one line per block. */
const plain = (html: string): string =>
  /[<&]/.test(html)
    ? convert(html, {
        wordwrap: false,
        selectors: [
          { selector: "a", options: { ignoreHref: true } },
          { selector: "img", format: "skip" },
          { selector: "h1", options: { uppercase: false } },
          { selector: "h2", options: { uppercase: false } },
          { selector: "h3", options: { uppercase: false } }
        ]
      })
        .replace(/\n{3,}/g, "\n\n")
        .trim()
    : html.trim()

const optionalPlain = (html: string | undefined) => {
  if (html === undefined) return null
  const text = plain(html)
  return text === "" ? null : text
}

// Summaries are cut before conversion too: a feed may carry whole articles of hundreds of kilobytes in `description`.
const summary = (html: string | undefined) => clip(plain((html ?? "").slice(0, TEXT_MAX * 20)))
