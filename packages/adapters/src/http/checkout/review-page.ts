import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import { BrowserSessions } from "@svc/core/auth"
import { RateLimiter } from "@svc/core/limits"
import { REVIEW_NAME_MAX, REVIEW_TEXT_MAX, type ReviewPageView, StoreReviewRequests } from "@svc/core/store"
import { Effect, type Layer } from "effect"
import { errorPages, html, page } from "../browser/index.js"
import { PublicUrl } from "../config.js"
import {
  type FieldErrors,
  fieldError,
  honeypot,
  invalidAttrs,
  notePage,
  plausibleLinkPart,
  type Typed
} from "../public-pages/pages.js"
import { makePublicPost } from "../public-pages/public-post.js"

const RATINGS = [5, 4, 3, 2, 1] as const

/** The review form: stars as radio buttons in a fieldset, the words, the name to quote, and leave to quote. */
const reviewPage = (
  base: string,
  action: string,
  view: ReviewPageView,
  shown: { readonly errors?: FieldErrors; readonly typed?: Typed; readonly status?: number } = {}
) => {
  const { errors = {}, typed = { name: view.request.name ?? "" } } = shown
  return page({
    base,
    title: `Review ${view.productTitle}`,
    ...(shown.status === undefined ? {} : { status: shown.status }),
    body: html`<section class="card" aria-labelledby="title">
<p class="muted">${view.storeName}</p>
<h1 id="title">How is ${view.productTitle}?</h1>
<p>Your rating and a few words help ${view.storeName} and the people deciding whether to get it.</p>
<form method="post" action="${action}">
<fieldset${invalidAttrs(errors, "rating")}><legend>Your rating</legend>
${RATINGS.map(
  (n) =>
    html`<label class="choice"><input type="radio" name="rating" value="${String(n)}" required${typed.rating === String(n) ? html` checked` : html``}> <span>${"★".repeat(n)}${"☆".repeat(5 - n)} <span class="visually-hidden">${String(n)} out of 5</span></span></label>`
)}
</fieldset>
${fieldError(errors, "rating")}
<label for="text">Your review</label>
<textarea id="text" name="text" rows="6" required maxlength="${String(REVIEW_TEXT_MAX)}"${invalidAttrs(errors, "text")}>${typed.text ?? ""}</textarea>
${fieldError(errors, "text")}
<label for="name">Your name as it may be shown (optional)</label>
<input id="name" name="name" type="text" autocomplete="name" maxlength="${String(REVIEW_NAME_MAX)}" value="${typed.name ?? ""}"${invalidAttrs(errors, "name")}>
${fieldError(errors, "name")}
<label class="choice"><input type="checkbox" name="quote" value="yes"${typed.quote === "yes" ? html` checked` : html``}> <span>${view.storeName} may quote my review, with my name, on the product's page</span></label>
${honeypot}
<div class="actions"><button class="primary" type="submit">Send my review</button></div>
</form>
<p class="muted">Your rating counts either way; your words are shown only if you tick the box. This link works once.</p>
</section>`
  })
}

const plausible = plausibleLinkPart

/**
 * `GET /r/<request id>?k=<key>`: the review page of a buyer's review request, the link of the follow-up email; `POST`
 * takes the review, once. The key is the buyer's secret, so the form needs no session token: a forged or altered
 * link is not found (404), a used one answers 409. Posts must come from our own origin, and each address may post only
 * so often to one link.
 */
export const ReviewRequestRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | PublicUrl | BrowserSessions | RateLimiter | StoreReviewRequests
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const url = yield* PublicUrl
    const requests = yield* StoreReviewRequests
    const admitted = makePublicPost(url, yield* BrowserSessions, yield* RateLimiter)
    const errors = errorPages(url.base)

    const linkOf = (request: HttpServerRequest) =>
      Effect.map(HttpLayerRouter.params, (params) => {
        const id = params.request ?? ""
        const key = new URL(request.url, url.base).searchParams.get("k") ?? ""
        return { id, key, action: `${url.base}/r/${encodeURIComponent(id)}?k=${encodeURIComponent(key)}` }
      })

    const notFound = notePage({
      base: url.base,
      title: "Not found",
      message: "There is no such review link. Open the link from your email as it is.",
      status: 404
    })
    const used = notePage({
      base: url.base,
      title: "Already reviewed",
      message: "This link was used already: your review is in. Thank you.",
      status: 409
    })

    const show = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const link = yield* linkOf(request)
        if (!plausible(link.id) || !plausible(link.key)) return notFound
        return yield* requests.forBuyer(link.id, link.key).pipe(
          Effect.map((view) => (view.request.state === "answered" ? used : reviewPage(url.base, link.action, view))),
          Effect.catchTag("NotFound", () => Effect.succeed(notFound))
        )
      })

    const post = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const link = yield* linkOf(request)
        if (!plausible(link.id) || !plausible(link.key)) return notFound
        const admit = yield* admitted(request, `review:${link.id}`, "review", { spendToken: false })
        if ("refused" in admit) return admit.refused
        const fields = admit.fields
        const typed = {
          rating: fields.get("rating") ?? "",
          text: fields.get("text") ?? "",
          name: fields.get("name") ?? "",
          quote: fields.get("quote") === "yes" ? "yes" : ""
        }
        // Filled in by a bot: the review is not taken, and the page says nothing a bot could learn from.
        if ((fields.get("website") ?? "") !== "") return notFound
        return yield* requests.submit(link.id, link.key, { ...typed, quote: typed.quote === "yes" }).pipe(
          Effect.map(({ view }) =>
            notePage({
              base: url.base,
              title: "Thank you",
              message: `Your review of ${view.productTitle} is in.${typed.quote === "yes" ? ` ${view.storeName} may now quote it on the product's page.` : ""}`
            })
          ),
          Effect.catchTags({
            NotFound: () => Effect.succeed(notFound),
            Conflict: () => Effect.succeed(used),
            InvalidInput: (invalid) =>
              Effect.map(requests.forBuyer(link.id, link.key), (view) =>
                reviewPage(url.base, link.action, view, {
                  errors: Object.fromEntries(invalid.errors.map((e) => [e.path, e.message])),
                  typed,
                  status: 422
                })
              ).pipe(Effect.catchTag("NotFound", () => Effect.succeed(notFound)))
          })
        )
      })

    yield* router.addAll([
      HttpLayerRouter.route("GET", "/r/:request", (request) => errors.answerDefects(show(request))),
      HttpLayerRouter.route("POST", "/r/:request", (request) => errors.answerDefects(post(request)))
    ])
  })
)
