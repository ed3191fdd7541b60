/**
 * The browser kit of the pages, without a database: the session cookie, the same-origin check, HTML escaping, and the
 * layout's headers and stylesheet.
 */
import * as Cookies from "@effect/platform/Cookies"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { describe, expect, it } from "@effect/vitest"
import {
  clearedSessionCookie,
  errorPages,
  escapeHtml,
  hidden,
  html,
  page,
  sameOrigin,
  sessionCookie,
  StylesheetRoute
} from "../../src/http/browser/index.js"
import { makePublicUrl } from "../../src/http/config.js"

const plain = makePublicUrl("http://127.0.0.1:8787")
const secure = makePublicUrl("https://svc.example.com/base")

/** The `Set-Cookie` lines of `cookies`, each as its `name=value` and its set of attributes. */
const setCookies = (cookies: Cookies.Cookies) =>
  Cookies.toSetCookieHeaders(cookies).map((line) => {
    const [pair = "", ...attributes] = line.split("; ")
    return { pair, attributes: new Set(attributes) }
  })

const posted = (headers: Record<string, string>) =>
  HttpServerRequest.fromWeb(new Request("http://127.0.0.1:8787/settings/keys", { method: "POST", headers }))

describe("the session cookie", () => {
  it("is HttpOnly, SameSite=Lax and Path=/ with its Max-Age, and over https also Secure with the __Host- prefix", () => {
    expect(setCookies(sessionCookie("svc_ses_v", plain, 3_600_000))).toEqual([
      { pair: "svc_session=svc_ses_v", attributes: new Set(["Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=3600"]) }
    ])
    expect(setCookies(sessionCookie("svc_ses_v", secure, 3_600_000))).toEqual([
      {
        pair: "__Host-svc_session=svc_ses_v",
        attributes: new Set(["Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=3600", "Secure"])
      }
    ])
  })

  it("is removed with an empty value and Max-Age=0", () => {
    expect(setCookies(clearedSessionCookie(secure))).toEqual([
      {
        pair: "__Host-svc_session=",
        attributes: new Set(["Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0", "Secure"])
      }
    ])
  })
})

describe("the same-origin check of posted forms", () => {
  it("takes our own Origin, or failing that our own Referer, or a request with neither", () => {
    expect(sameOrigin(posted({ origin: "http://127.0.0.1:8787" }), plain)).toBe(true)
    expect(sameOrigin(posted({ referer: "http://127.0.0.1:8787/settings" }), plain)).toBe(true)
    expect(sameOrigin(posted({}), plain)).toBe(true)
  })

  it("refuses another site, the opaque origin and a Referer that is not a URL; Origin wins over Referer", () => {
    expect(sameOrigin(posted({ origin: "https://evil.example" }), plain)).toBe(false)
    expect(sameOrigin(posted({ origin: "null" }), plain)).toBe(false)
    expect(sameOrigin(posted({ origin: "http://127.0.0.1:8788" }), plain)).toBe(false)
    expect(sameOrigin(posted({ referer: "https://evil.example/page" }), plain)).toBe(false)
    expect(sameOrigin(posted({ referer: "not a url" }), plain)).toBe(false)
    expect(sameOrigin(posted({ origin: "https://evil.example", referer: "http://127.0.0.1:8787/" }), plain)).toBe(false)
  })
})

describe("HTML templates", () => {
  it("escape every interpolated value, in text and in attributes, unless it is already HTML", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;"
    )
    const name = `"><script>alert(1)</script>`
    expect(html`<p title="${name}">${name}</p>`.html).toBe(
      '<p title="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;">&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;</p>'
    )
    expect(html`<ul>${["<b>", html`<li>kept</li>`]}</ul>`.html).toBe("<ul>&#60;b&#62;<li>kept</li></ul>")
    expect(html`${undefined}${null}${false}${0}`.html).toBe("0")
    expect(hidden("csrf", `a"b`).html).toBe(`<input type="hidden" name="csrf" value="a&#34;b">`)
  })
})

describe("the layout", () => {
  it("sends every page uncached, without scripts or framing, and links the stylesheet the kit serves", async () => {
    const shown = HttpServerResponse.toWeb(
      page({ base: "http://127.0.0.1:8787/base", title: "T<", body: html`<p>x</p>` })
    )
    expect(shown.headers.get("cache-control")).toBe("no-store")
    expect(shown.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self' data:; media-src 'self'; base-uri 'none'; frame-ancestors 'none'"
    )
    expect(shown.headers.get("x-frame-options")).toBe("DENY")
    const text = await shown.text()
    expect(text).toContain("<title>T&#60; · svc</title>")
    const stylesheet = /<link rel="stylesheet" href="http:\/\/127\.0\.0\.1:8787\/base(\/[^"]+)">/.exec(text)?.[1]
    const { handler, dispose } = HttpLayerRouter.toWebHandler(StylesheetRoute, { disableLogger: true })
    try {
      const served = await handler(new Request(`http://127.0.0.1:8787${stylesheet}`))
      expect(served.status).toBe(200)
      expect(served.headers.get("content-type")).toBe("text/css; charset=utf-8")
      expect(await served.text()).toContain(".card {")
    } finally {
      await dispose()
    }
  })
})

describe("error pages", () => {
  it("say what went wrong and what to do, and close with the face's hint only where it has one", async () => {
    const store = await HttpServerResponse.toWeb(errorPages("http://127.0.0.1:8787").formExpired("Reload.")).text()
    expect(store).toContain(`<h1 id="title">This form has expired</h1>\n<p role="alert">Reload.</p>\n</section>`)
    const oauth = errorPages("http://127.0.0.1:8787", "Go back to the application.")
    const refused = HttpServerResponse.toWeb(oauth.crossSite())
    expect(refused.status).toBe(403)
    expect(await refused.text()).toContain(
      `<p role="alert">This form was sent from another site.</p>\n<p class="muted">Go back to the application.</p>`
    )
  })
})
