import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, type Layer } from "effect"

/** Where every page finds its stylesheet, under the base URL (the pages' policy allows styles from here only). */
export const STYLESHEET_PATH = "/oauth/style.css"

/** The stylesheet of every page: sign-in, consent, errors, settings, outbox, store pages, unsubscribe. */
export const stylesheet = `
:root { color-scheme: light dark; --bg: #f6f7f9; --card: #ffffff; --text: #1c2330; --muted: #5a6473; --line: #d9dee6;
  --accent: #2f5bd3; --accent-text: #ffffff; --danger: #b42318; --ok: #137333; --focus: #f59e0b; }
@media (prefers-color-scheme: dark) { :root { --bg: #11151c; --card: #1a202a; --text: #e8ecf2; --muted: #a3adbb;
  --line: #2e3643; --accent: #7aa2ff; --accent-text: #0c1220; --danger: #ff8a80; --ok: #81c995; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 28rem; margin: 8vh auto 4rem; padding: 0 1rem; }
main.wide { max-width: 52rem; margin-top: 4vh; }
.brand { font-weight: 700; letter-spacing: .02em; color: var(--muted); margin: 0 0 .75rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 1.75rem; box-shadow: 0 1px 2px rgba(0,0,0,.05); }
.card + .card { margin-top: 1.25rem; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; line-height: 1.3; }
h2 { font-size: 1.1rem; margin: 0 0 .75rem; }
p { margin: .5rem 0; }
.muted { color: var(--muted); font-size: .95rem; }
label { display: block; font-weight: 600; margin: 1rem 0 .3rem; }
input[type=email], input[type=password], input[type=text], input[type=number], select, textarea {
  width: 100%; padding: .6rem .7rem; border: 1px solid var(--line); border-radius: 8px; background: var(--bg); color: var(--text); font: inherit; }
input:focus-visible, select:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
button { font: inherit; font-weight: 600; border-radius: 8px; padding: .6rem 1.1rem; border: 1px solid transparent; cursor: pointer; }
button.primary { background: var(--accent); color: var(--accent-text); }
a.button { display: inline-block; font-weight: 600; border-radius: 8px; padding: .6rem 1.1rem; text-decoration: none; background: var(--accent); color: var(--accent-text); }
button.secondary { background: transparent; color: var(--text); border-color: var(--line); }
button.danger { background: transparent; color: var(--danger); border-color: var(--danger); padding: .35rem .8rem; }
.actions { display: flex; gap: .75rem; margin-top: 1.5rem; flex-wrap: wrap; }
.actions.end { justify-content: flex-end; }
.alert { border-left: 4px solid var(--danger); background: color-mix(in srgb, var(--danger) 10%, transparent); padding: .6rem .8rem; border-radius: 6px; margin: 1rem 0 0; }
.notice { border-left: 4px solid var(--ok); background: color-mix(in srgb, var(--ok) 10%, transparent); padding: .6rem .8rem; border-radius: 6px; margin: 0 0 1rem; }
ul.scopes { list-style: none; padding: 0; margin: 1rem 0; }
ul.scopes li { padding: .6rem 0; border-top: 1px solid var(--line); }
ul.scopes li:first-child { border-top: 0; }
ul.scopes strong { display: block; }
.where { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9rem; overflow-wrap: anywhere; }
code.token { display: block; padding: .75rem; border: 1px dashed var(--line); border-radius: 8px; font-size: .95rem; overflow-wrap: anywhere; user-select: all; }
table { width: 100%; border-collapse: collapse; font-size: .95rem; }
th, td { text-align: left; padding: .55rem .4rem; border-top: 1px solid var(--line); vertical-align: middle; }
td.date { white-space: nowrap; }
.asked { white-space: pre-wrap; overflow-wrap: anywhere; }
.review { margin: 1rem 0; }
.review blockquote { margin: 0 0 .3rem; padding-left: .8rem; border-left: 3px solid var(--line); }
th { color: var(--muted); font-weight: 600; border-top: 0; }
fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 1rem 0 0; padding: .75rem 1rem 1rem; }
legend { font-weight: 600; padding: 0 .3rem; }
.choice { display: flex; gap: .5rem; align-items: center; font-weight: 400; margin: .3rem 0; }
.parts { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .25rem 1rem; }
.parts label { font-weight: 400; margin: .4rem 0 .2rem; }
.topbar { display: flex; justify-content: space-between; align-items: center; margin-bottom: .75rem; }
.topbar form { margin: 0; }
.status-revoked { color: var(--muted); }
.error { color: var(--danger); font-size: .9rem; margin: .3rem 0 0; }
[aria-invalid=true] { border-color: var(--danger) !important; }
.test-mode { border-left: 4px solid var(--focus); background: color-mix(in srgb, var(--focus) 14%, transparent); padding: .6rem .8rem; border-radius: 6px; margin: 0 0 1rem; }
.price { font-size: 1.25rem; font-weight: 700; }
.row { display: flex; gap: .75rem; }
.row > div { flex: 1; }
.creator { display: flex; gap: 1rem; align-items: center; }
.creator h1 { margin: 0; }
.avatar { border-radius: 50%; object-fit: cover; flex: none; }
.headline { margin: .25rem 0 0; color: var(--muted); }
ul.links { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem 1rem; }
ul.cards { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 1rem; }
.product-card { border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; }
.product-card h3 { margin: 0 0 .25rem; }
.product-card p { margin: .25rem 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
ol.lessons { padding-left: 1.4rem; }
ol.lessons li { margin: .3rem 0; }
.done { color: var(--muted); font-size: .9em; }
progress { width: 100%; height: .6rem; }
.lesson-body img, .lesson-media img, .lesson-media video { max-width: 100%; height: auto; }
.lesson-body pre { overflow-x: auto; padding: .75rem; border: 1px solid var(--line); border-radius: 8px; }
.lesson-nav { display: flex; justify-content: space-between; gap: 1rem; flex-wrap: wrap; }
`

/** `GET /oauth/style.css`: the pages' stylesheet, cached for an hour. */
export const StylesheetRoute: Layer.Layer<never, never, HttpLayerRouter.HttpRouter> = HttpLayerRouter.add(
  "GET",
  STYLESHEET_PATH,
  Effect.succeed(
    HttpServerResponse.text(stylesheet, {
      contentType: "text/css; charset=utf-8",
      headers: { "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" }
    })
  )
)
