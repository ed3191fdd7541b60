import type { OAuthAudience, OAuthScope } from "@svc/core/auth"
import { type Html, html, page } from "../browser/index.js"

type ScopeText = { readonly title: string; readonly detail: string }

const WORKSPACE_READ = "Items, boards, notes, tables, tags, chats, research and analytics through the tools."
const WORKSPACE_WRITE =
  "Create and edit boards, notes, tables, scheduled posts and other workspace data through the tools."
const STORE_READ = "Sales, customers, products and the store's feeds through the store API (reading only)."
const STORE_WRITE =
  "Record sales, refunds and memberships and manage customers through the store API. Never your products."

/**
 * What each scope lets an application do on the faces its audience reaches, as the consent page says it: `read`
 * reads the tools and the store API, `write` adds changes on both, `store` is the store API alone.
 */
export const scopeDescriptionsAt: Record<OAuthAudience, Record<OAuthScope, ScopeText>> = {
  any: {
    read: { title: "Read your workspace and store", detail: `${WORKSPACE_READ} ${STORE_READ}` },
    write: { title: "Change your workspace and store", detail: `${WORKSPACE_WRITE} ${STORE_WRITE}` },
    store: {
      title: "Use your store through the store API only",
      detail: `${STORE_READ} ${STORE_WRITE} No workspace tools.`
    }
  },
  tools: {
    read: { title: "Read your workspace", detail: WORKSPACE_READ },
    write: { title: "Change your workspace", detail: WORKSPACE_WRITE },
    store: { title: "Use your store", detail: "Not available to the tools." }
  },
  store: {
    read: { title: "Read your store", detail: STORE_READ },
    write: { title: "Change your store", detail: STORE_WRITE },
    store: { title: "Use your store", detail: `${STORE_READ} ${STORE_WRITE}` }
  }
}

/** What each scope lets an application do, said for a grant that named no resource (the settings page's titles). */
export const scopeDescriptions: Record<OAuthScope, ScopeText> = scopeDescriptionsAt.any

/** The sign-in form; posts email, password and the form token to `action`. */
export const signInPage = (options: {
  readonly base: string
  readonly action: string
  readonly fields: Html
  readonly intro: string
  readonly error?: string | undefined
  readonly email?: string | undefined
  readonly status?: number
}) =>
  page({
    base: options.base,
    title: "Sign in",
    status: options.status ?? 200,
    body: html`<section class="card" aria-labelledby="title">
<h1 id="title">Sign in</h1>
<p class="muted">${options.intro}</p>
${options.error === undefined ? "" : html`<p class="alert" role="alert" id="sign-in-error">${options.error}</p>`}
<form method="post" action="${options.action}">
${options.fields}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ""}"${
      options.error === undefined ? html`` : html` aria-describedby="sign-in-error"`
    }>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button class="primary" type="submit">Sign in</button></div>
</form>
</section>`
  })

/** The consent page: who asks, where the answer goes, what it may do; Approve or Deny. */
export const consentPage = (options: {
  readonly base: string
  readonly clientName: string
  readonly redirectHost: string
  readonly scopes: ReadonlyArray<OAuthScope>
  readonly audience: OAuthAudience
  readonly resource: string
  readonly accountEmail: string
  readonly fields: Html
}) =>
  page({
    base: options.base,
    title: `Allow ${options.clientName}?`,
    body: html`<section class="card" aria-labelledby="title">
<h1 id="title">Allow ${options.clientName} to use your account?</h1>
<p class="muted">Signed in as <strong>${options.accountEmail}</strong>.</p>
<p>After you answer, you go back to <span class="where">${options.redirectHost}</span>.</p>
<h2>It will be able to</h2>
<ul class="scopes">
${options.scopes.map(
  (scope) =>
    html`<li><strong>${scopeDescriptionsAt[options.audience][scope].title}</strong><span class="muted">${scopeDescriptionsAt[options.audience][scope].detail}</span></li>`
)}
</ul>
<p class="muted">${
      options.resource === ""
        ? html`For the tools and the store API, as far as these permissions reach.`
        : html`For <span class="where">${options.resource}</span> only.`
    } You can disconnect it any time in your settings.</p>
<form method="post" action="${options.base}/oauth/consent">
${options.fields}
<div class="actions end">
<button class="secondary" type="submit" name="decision" value="deny">Deny</button>
<button class="primary" type="submit" name="decision" value="approve">Approve</button>
</div>
</form>
</section>`
  })
