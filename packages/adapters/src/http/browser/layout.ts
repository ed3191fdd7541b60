import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { pageHeaders } from "./headers.js"
import { type Html, html } from "./html.js"
import { STYLESHEET_PATH } from "./stylesheet.js"

/** A whole page: the shared layout around `body`, with the security headers every page sends. */
export const page = (options: {
  readonly title: string
  readonly body: Html
  readonly base: string
  readonly status?: number
  readonly wide?: boolean
  /** More of the head: a description, Open Graph tags. */
  readonly head?: Html
  /** A public page meant to be found (a creator page); every other page asks search engines to leave it out. */
  readonly indexable?: boolean
}): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(
    html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${options.indexable === true ? html`` : html`<meta name="robots" content="noindex">`}
<title>${options.title} · svc</title>${
      options.head === undefined
        ? html``
        : html`
${options.head}`
    }
<link rel="stylesheet" href="${options.base}${STYLESHEET_PATH}">
</head>
<body>
<main class="${options.wide ? "wide" : ""}">
<p class="brand" aria-hidden="true">svc</p>
${options.body}
</main>
</body>
</html>
`.html,
    { status: options.status ?? 200, contentType: "text/html; charset=utf-8", headers: pageHeaders }
  )
