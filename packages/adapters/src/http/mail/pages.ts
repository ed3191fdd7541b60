import type { OutboxMessage } from "@svc/core/mail"
import { hidden, html, page, utcMinute } from "../browser/index.js"

/** The unsubscribe page a link opens: one button, which posts the page's form token back to the same link. */
export const unsubscribePage = (options: {
  readonly base: string
  readonly action: string
  readonly csrf: string
  readonly email: string
}) =>
  page({
    base: options.base,
    title: "Unsubscribe",
    body: html`<section class="card" aria-labelledby="title">
<h1 id="title">Unsubscribe</h1>
<p>Stop the store's list emails to <strong>${options.email}</strong>?</p>
<p class="muted">Emails you need whatever you choose here, such as access to what you bought, still reach you.</p>
<form method="post" action="${options.action}">
${hidden("csrf", options.csrf)}
<div class="actions"><button class="primary" type="submit">Unsubscribe</button></div>
</form>
</section>`
  })

/** What the unsubscribe form answers: done, whether or not this click changed anything. */
export const unsubscribedPage = (base: string, email: string) =>
  page({
    base,
    title: "Unsubscribed",
    body: html`<section class="card" aria-labelledby="title">
<h1 id="title">You are unsubscribed</h1>
<p role="status"><strong>${email}</strong> gets no more emails from this store's list.</p>
</section>`
  })

/** A link that is not one this server signed, or was changed: nothing was done. */
export const badLinkPage = (base: string) =>
  page({
    base,
    title: "Link not valid",
    status: 404,
    body: html`<section class="card" aria-labelledby="title">
<h1 id="title">This link is not valid</h1>
<p role="alert">Nothing was changed. Use the unsubscribe link of the email exactly as it came.</p>
</section>`
  })

/** The owner's outbox: every message queued for their workspaces, newest first, with its full text. */
export const outboxPage = (options: {
  readonly base: string
  readonly email: string
  readonly messages: ReadonlyArray<OutboxMessage & { readonly shownText: string }>
  readonly delivering: boolean
  readonly next: string | undefined
}) =>
  page({
    base: options.base,
    title: "Outbox",
    wide: true,
    body: html`<div class="topbar">
<h1>Outbox</h1>
<a href="${options.base}/settings">Settings</a>
</div>
<p class="muted">Signed in as <strong>${options.email}</strong>. ${
      options.delivering
        ? "Mail goes out over SMTP; this is what was queued and how it went."
        : "No SMTP server is configured (SMTP_URL), so nothing is sent: the messages wait here, as a development mail catcher."
    }</p>
${
  options.messages.length === 0
    ? html`<section class="card"><p class="muted">No mail yet.</p></section>`
    : options.messages.map(
        (message) => html`<section class="card mail" aria-label="${message.subject}">
<h2>${message.subject}</h2>
<p class="muted">To <strong>${message.to}</strong> · ${message.kind} · <span class="status-${message.status}">${message.status}</span> · queued ${utcMinute(message.createdAt)} UTC${
          message.sentAt === null ? "" : html` · sent ${utcMinute(message.sentAt)} UTC`
        }${message.attempts > 0 ? html` · ${message.attempts} ${message.attempts === 1 ? "try" : "tries"}` : ""}</p>
${message.lastError === null ? "" : html`<p class="alert">${message.lastError}</p>`}
<pre class="mail-text">${message.shownText}</pre>
</section>`
      )
}
${options.next === undefined ? "" : html`<p><a href="${options.base}/settings/outbox?cursor=${options.next}">Older messages</a></p>`}`
  })
