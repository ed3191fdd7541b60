import { type Access, type ApiKey, describeAccess, type OAuthConnection, Part, redirectHostOf } from "@svc/core/auth"
import { type CreditBalance, formatCredits, refillsOn } from "@svc/core/credits"
import type { ProcessorStatus, StoreSettings } from "@svc/core/store"
import { hidden, html, page, utcMinute } from "../browser/index.js"
import { scopeDescriptions } from "../oauth/pages.js"

const partLabels: Record<Part, string> = {
  workspace: "Workspace",
  social: "Social intelligence",
  highlights: "Highlights & captures",
  boards: "Boards & documents",
  scheduling: "Scheduling",
  routines: "Routines",
  media: "Media",
  custom_ai: "Custom AI",
  skills: "Skills",
  store: "Store"
}

const describeToolsets = (toolsets: ReadonlyArray<Part> | null): string =>
  toolsets === null ? "All" : toolsets.map((part) => partLabels[part]).join(", ")

const keyStatus = (key: ApiKey, now: number): string =>
  key.revokedAt !== null
    ? `revoked ${utcMinute(key.revokedAt)}`
    : key.expiresAt !== null && key.expiresAt.getTime() <= now
      ? `expired ${utcMinute(key.expiresAt)}`
      : key.expiresAt === null
        ? "active, no expiry"
        : `active until ${utcMinute(key.expiresAt)}`

/** The one line of AI credits: "AI credits: 12.5 (10 of 50 monthly left, 2.5 extra; refills 2026-12-01)". */
export const creditsLine = (credits: CreditBalance): string =>
  `AI credits: ${formatCredits(credits.balanceTenths)} (${formatCredits(credits.allowanceTenths)} of ${formatCredits(
    credits.monthlyAllowanceTenths
  )} monthly left, ${formatCredits(credits.extraTenths)} extra; refills ${refillsOn(credits.period)})`

/** The settings page: API keys (create, list, revoke) and connected applications (list, disconnect). */
export const settingsPage = (options: {
  readonly base: string
  readonly email: string
  readonly csrf: string
  readonly keys: ReadonlyArray<ApiKey>
  readonly connections: ReadonlyArray<OAuthConnection>
  readonly credits: CreditBalance
  /** The store of the account's default workspace and its settings, when it has one. */
  readonly store?:
    | {
        readonly handle: string
        readonly name: string
        readonly settings: StoreSettings
        readonly processor: ProcessorStatus | null
        /** Where Stripe sends this store's events (the endpoint to add in Stripe). */
        readonly stripeWebhookUrl: string
        /** Whether this server offers Stripe Connect (the owner authorizes it on Stripe; no keys to copy). */
        readonly stripeConnect: boolean
      }
    | undefined
  readonly now: number
  readonly created?:
    | {
        readonly name: string
        readonly token: string
        readonly access: Access
        readonly toolsets: ReadonlyArray<Part> | null
      }
    | undefined
  readonly notice?: string | undefined
  readonly error?: string | undefined
  readonly status?: number
}) => {
  const csrf = hidden("csrf", options.csrf)
  const live = options.keys.filter((key) => key.revokedAt === null)
  return page({
    base: options.base,
    title: "Settings",
    wide: true,
    status: options.status ?? 200,
    body: html`<div class="topbar">
<h1>Settings</h1>
<form method="post" action="${options.base}/settings/sign-out">${csrf}<button class="secondary" type="submit">Sign out</button></form>
</div>
<p class="muted">Signed in as <strong>${options.email}</strong>. <a href="${options.base}/settings/outbox">Outbox</a>: the email the service sent or will send for you.</p>
<p class="credits">${creditsLine(options.credits)}</p>
${options.notice === undefined ? "" : html`<p class="notice" role="status">${options.notice}</p>`}
${options.error === undefined ? "" : html`<p class="alert" role="alert">${options.error}</p>`}
${
  options.created === undefined
    ? ""
    : html`<section class="card" aria-labelledby="new-key">
<h2 id="new-key">Your new API key “${options.created.name}”</h2>
<p>Copy it now: it is shown only this once. Access: ${describeAccess(options.created.access)}. Toolsets: ${describeToolsets(options.created.toolsets)}.</p>
<code class="token" aria-label="The new API key">${options.created.token}</code>
<p class="muted">Send it as <code>Authorization: Bearer …</code> to <code>${options.base}/mcp</code> or <code>${options.base}/v1/tools</code>.</p>
</section>`
}
<section class="card" aria-labelledby="keys">
<h2 id="keys">API keys</h2>
${
  options.keys.length === 0
    ? html`<p class="muted">No API keys yet.</p>`
    : html`<table>
<caption class="visually-hidden">Your API keys</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Access</th><th scope="col">Toolsets</th><th scope="col">Created (UTC)</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>
${options.keys.map(
  (key) => html`<tr class="${key.revokedAt === null ? "" : "status-revoked"}">
<td>${key.name}</td><td><code>${key.prefix}…</code></td><td>${describeAccess(key.access)}</td><td>${describeToolsets(key.toolsets)}</td><td class="date">${utcMinute(key.createdAt)}</td>
<td class="date">${utcMinute(key.lastUsedAt)}</td><td>${keyStatus(key, options.now)}</td>
<td>${
    key.revokedAt === null
      ? html`<form method="post" action="${options.base}/settings/keys/revoke">${csrf}${hidden("key_id", key.id)}<button class="danger" type="submit" aria-label="Revoke ${key.name}">Revoke</button></form>`
      : ""
  }</td></tr>`
)}
</tbody></table>
<p class="muted">${live.length} active.</p>`
}
</section>
<section class="card" aria-labelledby="create">
<h2 id="create">Create an API key</h2>
<form method="post" action="${options.base}/settings/keys">
${csrf}
<label for="key-name">Name</label>
<input id="key-name" name="name" type="text" maxlength="100" required placeholder="e.g. Zapier, my laptop">
<fieldset>
<legend>Access</legend>
<label class="choice"><input type="radio" name="access" value="full" checked> Full access: every tool, read and change</label>
<label class="choice"><input type="radio" name="access" value="custom"> Custom: choose per part below</label>
<div class="parts">
${Part.literals.map(
  (part) => html`<div><label for="part-${part}">${partLabels[part]}</label>
<select id="part-${part}" name="part_${part}"><option value="off">Off</option><option value="read" selected>Read</option><option value="edit">Edit</option></select></div>`
)}
</div>
<p class="muted">The parts apply only to a Custom key.</p>
</fieldset>
<fieldset>
<legend>Default toolsets</legend>
<p class="muted">The tool groups an agent is served when it asks for none (it may ask with the X-MCP-Toolsets header). None ticked: every group the access allows.</p>
<div class="parts">
${Part.literals.map(
  (part) =>
    html`<label class="choice"><input type="checkbox" name="toolset" value="${part}"> ${partLabels[part]}</label>`
)}
</div>
</fieldset>
<label for="key-expiry">Expires after (days, optional)</label>
<input id="key-expiry" name="expires_in_days" type="number" min="1" max="3650" inputmode="numeric">
<div class="actions"><button class="primary" type="submit">Create key</button></div>
</form>
</section>
${
  options.store === undefined
    ? ""
    : html`<section class="card" aria-labelledby="store">
<h2 id="store">Store ${options.store.handle}</h2>
<p class="muted">A product goes live once the store has a support email, and a paid one once a card processor is connected (or it sells through your own checkout link). A store API key with Store set to Edit can change these too (<code>PATCH /store-app/v1/settings</code>).</p>
<form method="post" action="${options.base}/settings/store">
${csrf}
<label for="store-name">Store name</label>
<input id="store-name" name="name" type="text" required maxlength="100" value="${options.store.name}">
<label for="support-email">Support email</label>
<input id="support-email" name="support_email" type="email" maxlength="254" value="${options.store.settings.supportEmail ?? ""}" placeholder="help@example.com">
<label for="card-processor">Card processor</label>
<select id="card-processor" name="card_processor">
<option value="none"${options.store.settings.cardProcessor === "none" ? " selected" : ""}>None</option>
<option value="connected"${options.store.settings.cardProcessor === "connected" ? " selected" : ""}>Connected</option>
</select>
<label class="choice"><input type="checkbox" name="email_list_add_buyers"${options.store.settings.emailListAddBuyers ? " checked" : ""}> Buyers join the email list</label>
<label class="choice"><input type="checkbox" name="email_double_opt_in"${options.store.settings.emailDoubleOptIn ? " checked" : ""}> Sign-ups confirm by email before they join</label>
<div class="actions"><button class="primary" type="submit">Save store settings</button></div>
</form>
<h3 id="stripe">Stripe</h3>
${
  options.store.processor === null
    ? html`<p class="muted">With no Stripe account connected, a connected card processor is the built-in test processor: buyers pay with test cards and no money moves. To take real payments, add a webhook endpoint in Stripe (Developers &gt; Webhooks) for <code>${options.store.stripeWebhookUrl}</code>, then enter your secret key and the endpoint's signing secret here.</p>`
    : html`<p role="status">Connected to Stripe account <code>${options.store.processor.accountId}</code> (${options.store.processor.livemode ? "live: real payments" : "Stripe test mode"}) ${options.store.processor.via === "connect" ? "through Stripe Connect" : "with its secret key"} since ${utcMinute(options.store.processor.connectedAt)} UTC. Stripe sends its events to <code>${options.store.processor.webhookUrl}</code>.</p>
<form method="post" action="${options.base}/settings/store/stripe/disconnect">${csrf}<div class="actions"><button class="danger" type="submit">Disconnect Stripe</button></div></form>`
}
${
  options.store.stripeConnect
    ? html`<form method="post" action="${options.base}/settings/store/stripe/connect">${csrf}<p class="muted">Connect with Stripe: sign in to Stripe and allow this service to take your store's payments. No keys to copy, and Stripe's events reach the store by themselves.</p><div class="actions"><button class="primary" type="submit">${options.store.processor === null ? "Connect with Stripe" : "Connect another account with Stripe"}</button></div></form>
<p class="muted">Or connect with your own keys:</p>`
    : html``
}
<form method="post" action="${options.base}/settings/store/stripe">
${csrf}
<label for="stripe-secret-key">Secret key</label>
<input id="stripe-secret-key" name="secret_key" type="password" required maxlength="300" autocomplete="off" placeholder="sk_live_…">
<label for="stripe-webhook-secret">Webhook signing secret</label>
<input id="stripe-webhook-secret" name="webhook_secret" type="password" required maxlength="300" autocomplete="off" placeholder="whsec_…">
<p class="muted">The keys are checked with Stripe, kept sealed and never shown again.</p>
<div class="actions"><button class="primary" type="submit">${options.store.processor === null ? "Connect Stripe" : "Replace the Stripe keys"}</button></div>
</form>
</section>`
}
<section class="card" aria-labelledby="apps">
<h2 id="apps">Connected applications</h2>
${
  options.connections.length === 0
    ? html`<p class="muted">No application is connected. MCP clients connect with the URL <code>${options.base}/mcp</code>.</p>`
    : html`<table>
<caption class="visually-hidden">Applications connected with OAuth</caption>
<thead><tr><th scope="col">Application</th><th scope="col">Returns to</th><th scope="col">Can</th><th scope="col">Connected (UTC)</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>
${options.connections.map(
  (connection) => html`<tr><td>${connection.clientName ?? connection.clientId}</td>
<td class="where">${redirectHostOf(connection.redirectUri)}</td>
<td>${connection.scopes.map((scope) => scopeDescriptions[scope].title).join(", ")}</td>
<td class="date">${utcMinute(connection.connectedAt)}</td>
<td><form method="post" action="${options.base}/settings/apps/revoke">${csrf}${hidden("client_id", connection.clientId)}<button class="danger" type="submit" aria-label="Disconnect ${connection.clientName ?? connection.clientId}">Disconnect</button></form></td></tr>`
)}
</tbody></table>`
}
</section>`
  })
}
