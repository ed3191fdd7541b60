import MarkdownIt from "markdown-it"
import type { Html } from "../browser/index.js"

// A seller's lesson text shown to their learners. Raw HTML in it is shown as text (`html: false`), and markdown-it
// refuses `javascript:`, `vbscript:` and most `data:` links itself; the pages' policy runs no scripts either way.
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false })

// Links in a lesson open the seller's pages: never with the learner's page as the opener.
const defaultLinkOpen =
  markdown.renderer.rules.link_open ??
  ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options))
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]?.attrSet("rel", "noopener noreferrer")
  return defaultLinkOpen(tokens, index, options, env, self)
}

/** A lesson's Markdown as HTML, safe to put in a page. */
export const lessonHtml = (text: string): Html => ({ html: markdown.render(text) })
