import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { BrowserSessions } from "@svc/core/auth"
import { MailingList, MailSigner, readUnsubscribeToken, unsubscribeByToken } from "@svc/core/mail"
import { Effect, type Layer, Option } from "effect"
import { readBodyText } from "../body.js"
import { ensureSession, errorPages, existingSession, sameOrigin, spendFormToken } from "../browser/index.js"
import { PublicUrl } from "../config.js"
import { badLinkPage, unsubscribedPage, unsubscribePage } from "./pages.js"

const UNSUBSCRIBE_FORM = "unsubscribe"
const MAX_BODY_BYTES = 16 * 1024

/**
 * The path of the unsubscribe links: `/u/<token>`. A wildcard, not a `:token` parameter: the router refuses parameters
 * over 100 characters, and a token holding a long address is longer.
 */
export const UNSUBSCRIBE_PATH = "/u/*"

const token = Effect.map(HttpLayerRouter.params, (params) => params["*"] ?? "")

/**
 * The fields of a POST: a mail client's one-click (`List-Unsubscribe=One-Click`, RFC 8058, sent as
 * `application/x-www-form-urlencoded` or `multipart/form-data`) or the page's own form. Fetch's `formData()` parser
 * reads both encodings; an unreadable body is no fields.
 */
const postedFields = (request: HttpServerRequest) =>
  readBodyText(request, MAX_BODY_BYTES).pipe(
    Effect.flatMap((text) =>
      Effect.tryPromise(() =>
        new Response(text, {
          headers: { "content-type": request.headers["content-type"] ?? "application/x-www-form-urlencoded" }
        }).formData()
      )
    ),
    Effect.map((form) => ({
      oneClick: form.get("List-Unsubscribe") === "One-Click",
      csrf: typeof form.get("csrf") === "string" ? String(form.get("csrf")) : ""
    })),
    Effect.orElseSucceed(() => ({ oneClick: false, csrf: "" }))
  )

/**
 * `GET /u/<token>`: the unsubscribe page (a button, no scripts, never framed), and `POST /u/<token>`: the one-click
 * unsubscribe of mail clients or the page's form. The signed token is what proves the link came from us; a forged or
 * altered one changes nothing and answers 404.
 */
export const UnsubscribeRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | PublicUrl | BrowserSessions | MailSigner | MailingList
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const url = yield* PublicUrl
    const sessions = yield* BrowserSessions
    const signer = yield* MailSigner
    const list = yield* MailingList
    const provide = <A, E>(effect: Effect.Effect<A, E, MailSigner | MailingList>) =>
      effect.pipe(Effect.provideService(MailSigner, signer), Effect.provideService(MailingList, list))
    const errors = errorPages(url.base)
    const withDefectsAnswered = errors.answerDefects
    const action = (t: string) => `${url.base}/u/${t}`

    const show = (request: HttpServerRequest, t: string) =>
      Effect.gen(function* () {
        const target = yield* provide(readUnsubscribeToken(t))
        if (Option.isNone(target)) return badLinkPage(url.base)
        const { session, cookies } = yield* ensureSession(sessions, request, url)
        const page = unsubscribePage({
          base: url.base,
          action: action(t),
          csrf: yield* sessions.formToken(session, UNSUBSCRIBE_FORM),
          email: target.value.email
        })
        return HttpServerResponse.mergeCookies(page, cookies)
      })

    const unsubscribe = (request: HttpServerRequest, t: string) =>
      Effect.gen(function* () {
        const fields = yield* postedFields(request)
        if (!fields.oneClick) {
          // The page's form: from our own page, with its single-use token. A mail client's one-click carries no
          // cookie and needs none: the signed link alone authorises it (RFC 8058).
          if (!sameOrigin(request, url)) return errors.crossSite()
          const session = yield* existingSession(sessions, request, url)
          if (!(yield* spendFormToken(sessions, session, UNSUBSCRIBE_FORM, fields.csrf))) {
            return errors.formExpired("Open the link from the email again.")
          }
        }
        const done = yield* provide(unsubscribeByToken(t))
        return Option.isNone(done) ? badLinkPage(url.base) : unsubscribedPage(url.base, done.value.email)
      })

    yield* router.addAll([
      HttpLayerRouter.route("GET", UNSUBSCRIBE_PATH, (request) =>
        Effect.flatMap(token, (t) => withDefectsAnswered(show(request, t)))
      ),
      HttpLayerRouter.route("POST", UNSUBSCRIBE_PATH, (request) =>
        Effect.flatMap(token, (t) => withDefectsAnswered(unsubscribe(request, t)))
      )
    ])
  })
)
