import type { Store } from "@svc/core/accounts"
import { type CreatorPageView, type Form, type Product, STORE_CURRENCY } from "@svc/core/store"
import { hidden, type Html, html, page } from "../browser/index.js"
import { ratingLine } from "./rating.js"

/** Field errors by field name (`email`, `consent`, `answers.q1`), as the page marks them. */
export type FieldErrors = Readonly<Record<string, string>>

/** What a visitor typed, kept when the page is shown again with errors. */
export type Typed = Readonly<Record<string, string>>

const price = (product: Product) =>
  product.fields.price_cents === 0
    ? "Free"
    : `${(product.fields.price_cents / 100).toFixed(2)} ${STORE_CURRENCY.toUpperCase()}`

export const fieldError = (errors: FieldErrors, name: string): Html =>
  errors[name] === undefined ? html`` : html`<p class="error" id="${name}-error" role="alert">${errors[name]}</p>`

export const invalidAttrs = (errors: FieldErrors, name: string): Html =>
  errors[name] === undefined ? html`` : html` aria-invalid="true" aria-describedby="${name}-error"`

/** Who the visitor is, as both forms ask: the email (required) and a name. */
export const personFields = (errors: FieldErrors, typed: Typed): Html => html`<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${typed.email ?? ""}"${invalidAttrs(errors, "email")}>
${fieldError(errors, "email")}
<label for="name">Name (optional)</label>
<input id="name" name="name" type="text" autocomplete="name" value="${typed.name ?? ""}"${invalidAttrs(errors, "name")}>
${fieldError(errors, "name")}`

// A field no person sees or fills (the `hidden` attribute needs no style, which the pages' policy would refuse):
// bots that fill every field give themselves away.
/**
 * Whether an id or key of a link (a review link, a course link) could be one we made: one too long, or holding a NUL
 * the database would refuse, is not looked up.
 */
export const plausibleLinkPart = (text: string) => text.length > 0 && text.length <= 200 && !text.includes("\u0000")

export const honeypot = html`<div hidden><label>Leave this empty <input name="website" tabindex="-1" autocomplete="off"></label></div>`

/** What a page with a form shows again after a refused post: the errors by field, the typing, the status. */
export interface Shown {
  readonly errors?: FieldErrors
  readonly typed?: Typed
  readonly status?: number
}

/** What both public pages with a form need: the store and the form's token. */
interface PublicForm extends Shown {
  readonly base: string
  readonly store: Store
  readonly csrf: string
}

/** The paragraphs of a bio: blank lines part them; single line breaks stay inside one. */
const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter((part) => part !== "")

/** What a page's description says: the headline, else the bio's start, else whose store it is. */
const describe = (store: Store, view: CreatorPageView) => {
  const text = view.page.headline ?? view.page.bio ?? `${store.name}: products and email list.`
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat
}

const buyLink = (base: string, p: Product) =>
  p.fields.checkout_mode === "external"
    ? p.fields.checkout_url === null
      ? html``
      : html`<a href="${p.fields.checkout_url}" rel="noopener">Buy<span class="visually-hidden"> ${p.fields.title}</span></a>`
    : html`<a href="${base}/c/${p.id}">${p.fields.price_cents === 0 ? "Get it" : "Buy"}<span class="visually-hidden"> ${p.fields.title}</span></a>`

/**
 * The store's public page `/s/<handle>`, as its creator shapes it: the avatar, name, headline and bio, their links,
 * the featured products as cards with price and rating, the other live products, the email sign-up block and the
 * forms. Search engines may list it, and it carries Open Graph tags for link previews.
 */
export const storePage = (
  options: PublicForm & { readonly view: CreatorPageView; readonly forms: ReadonlyArray<Form> }
) => {
  const { store, view, errors = {}, typed = {} } = options
  const { page: creator } = view
  const at = `${options.base}/s/${store.handle}`
  const description = describe(store, view)
  const avatarUrl = view.avatar === null ? null : `${at}/avatar`
  const head = html`<meta name="description" content="${description}">
<link rel="canonical" href="${at}">
<meta property="og:type" content="profile">
<meta property="og:title" content="${store.name}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${at}">
${
  avatarUrl === null
    ? html``
    : html`<meta property="og:image" content="${avatarUrl}">
<meta property="og:image:alt" content="${store.name}">`
}
<meta name="twitter:card" content="summary">`
  return page({
    base: options.base,
    title: store.name,
    head,
    indexable: true,
    ...(options.status === undefined ? {} : { status: options.status }),
    body: html`<section class="card" aria-labelledby="title">
<header class="creator">
${avatarUrl === null ? html`` : html`<img class="avatar" src="${avatarUrl}" alt="" width="96" height="96">`}
<div>
<h1 id="title">${store.name}</h1>
${creator.headline === null ? html`` : html`<p class="headline">${creator.headline}</p>`}
</div>
</header>
${creator.bio === null ? html`` : paragraphs(creator.bio).map((part) => html`<p class="asked">${part}</p>`)}
${
  creator.links.length === 0
    ? html``
    : html`<nav aria-label="Links"><ul class="links">${creator.links.map(
        (link) => html`<li><a href="${link.url}" rel="me noopener">${link.label}</a></li>`
      )}</ul></nav>`
}
${
  view.featured.length === 0
    ? html``
    : html`<h2>Featured</h2>
<ul class="cards">${view.featured.map(
        ({ product: p, rating }) => html`<li class="product-card">
<h3>${p.fields.title}</h3>
${p.fields.tagline === null ? html`` : html`<p class="muted">${p.fields.tagline}</p>`}
<p class="price">${price(p)}</p>
${ratingLine(rating)}
<p>${buyLink(options.base, p)}</p>
</li>`
      )}</ul>`
}
${
  view.others.length === 0
    ? html``
    : html`<h2>${view.featured.length === 0 ? "Products" : "More products"}</h2>
<ul>${view.others.map(
        (p) =>
          html`<li><strong>${p.fields.title}</strong> — ${price(p)}${
            p.fields.tagline === null ? html`` : html`<br><span class="muted">${p.fields.tagline}</span>`
          } ${buyLink(options.base, p)}</li>`
      )}</ul>`
}
${
  creator.signup.shown
    ? html`<h2 id="signup">${creator.signup.heading}</h2>
${creator.signup.text === null ? html`` : html`<p>${creator.signup.text}</p>`}
<form method="post" action="${at}/signup">
${hidden("csrf", options.csrf)}
${personFields(errors, typed)}
<label class="choice"><input type="checkbox" name="consent" value="yes"${typed.consent === "yes" ? html` checked` : html``}${invalidAttrs(errors, "consent")}>
I agree to receive emails from ${store.name}. I can unsubscribe at any time with the link in every email.</label>
${fieldError(errors, "consent")}
${honeypot}
<div class="actions"><button class="primary" type="submit">Sign up</button></div>
</form>`
    : html``
}
${
  options.forms.length === 0
    ? html``
    : html`<h2>Forms</h2>
<ul>${options.forms.map((f) => html`<li><a href="${at}/forms/${f.id}">${f.title}</a></li>`)}</ul>`
}
</section>`
  })
}

const questionInput = (form: Form, index: number, errors: FieldErrors, typed: Typed): Html => {
  const q = form.questions[index]
  if (q === undefined) return html``
  const field = `answers.${q.id}`
  const value = typed[q.id] ?? ""
  const label = html`<label for="${q.id}">${q.label}${q.required ? html` <span aria-hidden="true">*</span>` : html``}</label>`
  const required = q.required ? html` required` : html``
  const control =
    q.kind === "paragraph"
      ? html`<textarea id="${q.id}" name="${q.id}" rows="5"${required}${invalidAttrs(errors, field)}>${value}</textarea>`
      : q.kind === "choice"
        ? html`<select id="${q.id}" name="${q.id}"${required}${invalidAttrs(errors, field)}><option value="">Choose…</option>${q.choices.map(
            (c) => html`<option${c === value ? html` selected` : html``}>${c}</option>`
          )}</select>`
        : html`<input id="${q.id}" name="${q.id}" type="${q.kind === "email" ? "email" : "text"}" value="${value}"${required}${invalidAttrs(errors, field)}>`
  return html`${label}${control}${fieldError(errors, field)}`
}

/** A form's public page: the person's email and name, then the questions; refused answers marked where they are. */
export const formPage = (options: PublicForm & { readonly form: Form }) => {
  const { store, form, errors = {}, typed = {} } = options
  return page({
    base: options.base,
    title: form.title,
    ...(options.status === undefined ? {} : { status: options.status }),
    body: html`<section class="card" aria-labelledby="title">
<p class="muted"><a href="${options.base}/s/${store.handle}">${store.name}</a></p>
<h1 id="title">${form.title}</h1>
${form.description === "" ? html`` : html`<p>${form.description}</p>`}
${Object.keys(errors).length === 0 ? html`` : html`<p class="error" role="alert">Some answers need a change: see below.</p>`}
<form method="post" action="${options.base}/s/${store.handle}/forms/${form.id}">
${hidden("csrf", options.csrf)}
${personFields(errors, typed)}
${form.questions.map((_, index) => questionInput(form, index, errors, typed))}
${honeypot}
<div class="actions"><button class="primary" type="submit">Send</button></div>
</form>
</section>`
  })
}

/** A short page saying what happened (signed up, check your inbox, sent), or why not. */
export const notePage = (options: {
  readonly base: string
  readonly title: string
  readonly message: string
  readonly status?: number
  readonly back?: string
}) =>
  page({
    base: options.base,
    title: options.title,
    ...(options.status === undefined ? {} : { status: options.status }),
    body: html`<section class="card" aria-labelledby="title">
<h1 id="title">${options.title}</h1>
<p role="status">${options.message}</p>
${options.back === undefined ? html`` : html`<p><a href="${options.back}">Back</a></p>`}
</section>`
  })
