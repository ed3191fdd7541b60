/**
 * The browser kit of the pages (sign-in, consent, settings, outbox, store pages, unsubscribe): HTML templates and
 * escaping, the layout and its stylesheet, the pages' headers, the session cookie (through `@effect/platform`'s
 * `Cookies`), browser sessions, posted forms, and the CSRF defences (same origin, single-use form tokens).
 */
export {
  affiliateCookie,
  affiliateCookieName,
  clearedSessionCookie,
  sessionCookie,
  sessionCookieOf
} from "./cookies.js"
export { utcMinute } from "./dates.js"
export { FieldHoldsNul, readParameters, readPostedForm, refuseNul } from "./form.js"
export { errorPages } from "./error-pages.js"
export { spendFormToken } from "./form-token.js"
export { noStore, pageHeaders } from "./headers.js"
export { escapeHtml, type Html, hidden, html } from "./html.js"
export { page } from "./layout.js"
export { redirectTo, signInPath } from "./redirect.js"
export { sameOrigin } from "./same-origin.js"
export { ensureSession, existingSession, type PageSession, signedInCookie, signedInSession } from "./session.js"
export { STYLESHEET_PATH, StylesheetRoute, stylesheet } from "./stylesheet.js"
