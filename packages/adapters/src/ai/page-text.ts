/**
 * HTML pages as text through `html-to-text` (htmlparser2 underneath), in a worker thread. The parser's time grows
 * with the square of a page's nesting depth, so a hostile page of a few hundred thousand unclosed tags would hold
 * the event loop for minutes; in a worker it holds only the worker, which is stopped at a deadline.
 */
import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"
import { DocumentUnreadable, type ReadablePage } from "@svc/core/custom-ai"
import { Duration, Effect, Schema } from "effect"
import type { HtmlToTextOptions } from "html-to-text"

/** The longest page read, in characters: above the page fetcher's 2 MB, so only a caller's own HTML meets it. */
export const PAGE_HTML_MAX = 4 * 1024 * 1024

const PAGE_DEADLINE = Duration.seconds(10)

// Elements a reader never reads: code, styling, menus, embedded objects, and images (their addresses are noise).
const SKIPPED = ["script", "style", "noscript", "template", "svg", "nav", "footer", "iframe", "object", "img"]

const HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"]

// Deeper content is left out: real pages nest far less, and the converter walks the tree recursively.
const limits = { maxDepth: 500, maxInputLength: PAGE_HTML_MAX, ellipsis: "" }

/** The body as text: lines unwrapped, headings as written, list items as "- ", table cells apart, links kept. */
const bodyOptions: HtmlToTextOptions = {
  wordwrap: false,
  limits,
  selectors: [
    ...SKIPPED.map((selector) => ({ selector, format: "skip" })),
    ...HEADINGS.map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
    { selector: "ul", options: { itemPrefix: "- " } },
    { selector: "tr", format: "block" },
    { selector: "td", format: "inlineSurround", options: { suffix: " " } },
    { selector: "th", format: "inlineSurround", options: { suffix: " " } }
  ]
}

/** Only the first `<title>`. */
const titleOptions: HtmlToTextOptions = {
  wordwrap: false,
  baseElements: { selectors: ["title"], returnDomByDefault: false },
  limits: { ...limits, maxBaseElements: 1 }
}

// The worker loads the library's CommonJS build by its resolved path, so it needs no module resolution of its own.
// Options cross as data; the one function, which resolves each link against the page (and drops `javascript:` and
// other non-web ones), is made here.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads")
const { compile } = require(workerData.library)
const { html, pageUrl, body, title } = workerData
const resolved = (href) => {
  try {
    const url = new URL(href, pageUrl)
    return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:" ? url.href : ""
  } catch {
    return ""
  }
}
for (const selector of body.selectors) if (selector.selector === "a") selector.options.pathRewrite = resolved
parentPort.postMessage({ title: compile(title)(html), text: compile(body)(html) })
`

const library = createRequire(import.meta.url).resolve("html-to-text")

const Converted = Schema.Struct({ title: Schema.String, text: Schema.String })

const unreadable = (message: string) => new DocumentUnreadable({ message })

const converted = (html: string, pageUrl: string) =>
  Effect.async<unknown, DocumentUnreadable>((resume) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { library, html, pageUrl, body: bodyOptions, title: titleOptions },
      resourceLimits: { maxOldGenerationSizeMb: 256 }
    })
    worker.once("message", (message: unknown) => resume(Effect.succeed(message)))
    worker.once("error", (error) => resume(Effect.fail(unreadable(error.message))))
    worker.once("exit", (code) => resume(Effect.fail(unreadable(`the page reader stopped (exit code ${code})`))))
    // Interrupted (the deadline, or the caller gave up): the worker goes with it.
    return Effect.promise(() => worker.terminate())
  })

/**
 * An HTML page's title and readable text, converted off the event loop and given up after `deadline`: scripts,
 * styles, navigation, footers and images left out, whitespace folded, links as "text [address]".
 */
export const htmlPageText = (
  html: string,
  pageUrl: string,
  deadline: Duration.DurationInput = PAGE_DEADLINE
): Effect.Effect<ReadablePage, DocumentUnreadable> =>
  html.length > PAGE_HTML_MAX
    ? Effect.fail(unreadable(`the page is more than ${PAGE_HTML_MAX} characters`))
    : converted(html, pageUrl).pipe(
        Effect.flatMap(Schema.decodeUnknown(Converted)),
        Effect.catchTag("ParseError", (error) => Effect.fail(unreadable(error.message))),
        Effect.timeoutFail({
          duration: deadline,
          onTimeout: () => unreadable(`reading the page took longer than ${Duration.format(deadline)}`)
        }),
        Effect.map(({ title, text }) => {
          const folded = title.replace(/\s+/g, " ").trim()
          // A non-breaking space reads as a space; the library keeps it as written.
          return { title: folded.length === 0 ? null : folded, text: text.replace(/\u00a0/g, " ") }
        })
      )
