import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { BrowserSessions } from "@svc/core/auth"
import { RateLimiter } from "@svc/core/limits"
import {
  type CheckoutRequest,
  type Product,
  type Sale,
  StoreAffiliates,
  StoreCheckout,
  type Unavailable
} from "@svc/core/store"
import { Transactor } from "@svc/core/shared"
import { Effect, type Layer, Option } from "effect"
import {
  affiliateCookie,
  affiliateCookieName,
  ensureSession,
  errorPages,
  redirectTo,
  spendFormToken
} from "../browser/index.js"
import { PublicUrl } from "../config.js"
import { notePage } from "../public-pages/pages.js"
import { makePublicPost } from "../public-pages/public-post.js"
import { ATTRIBUTION_FIELDS, authenticationPage, type CheckoutShown, checkoutPage, money } from "./pages.js"

const purposeOf = (productId: string) => `checkout:${productId}`

/** The landing link's attribution from query or form fields; the referrer falls back to the `Referer` header. */
const attributionOf = (params: URLSearchParams, referer: string | undefined, ownOrigin: string) => {
  const carried: Record<string, string> = {}
  for (const name of ATTRIBUTION_FIELDS) {
    const value = params.get(name)
    if (value !== null && value !== "") carried[name] = value
  }
  // The page linking here is the referrer, unless it is one of our own pages (a reload, the code's Apply button).
  if (carried.referrer === undefined && referer !== undefined && referer !== "") {
    const origin = URL.canParse(referer) ? new URL(referer).origin : ""
    if (origin !== ownOrigin) carried.referrer = referer
  }
  return carried
}

/**
 * The service's own checkout: `GET /c/<product id>` shows the product's prices, a discount code, the buyer's details and
 * the card (or the waitlist form, or the free claim), and `POST` buys. Server-rendered without scripts, never framed;
 * the form carries a single-use token of the visitor's browser session, must come from our own origin, and each
 * address may post only so often per product. A product sold through the seller's own checkout redirects there.
 */
export const CheckoutRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | PublicUrl | BrowserSessions | StoreCheckout | StoreAffiliates | RateLimiter | Transactor
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const url = yield* PublicUrl
    const sessions = yield* BrowserSessions
    const checkout = yield* StoreCheckout
    const affiliates = yield* StoreAffiliates
    const limiter = yield* RateLimiter
    const transactor = yield* Transactor
    const errors = errorPages(url.base)
    const admitted = makePublicPost(url, sessions, limiter)
    const ownOrigin = new URL(url.base).origin

    const unavailablePage = (unavailable: Unavailable) =>
      unavailable.reason === "external"
        ? redirectTo(unavailable.checkoutUrl, 302)
        : notePage({
            base: url.base,
            title: unavailable.reason === "not_found" ? "Not found" : "Not on sale",
            message: unavailable.message,
            status: unavailable.reason === "not_found" ? 404 : 409
          })

    const productIdOf = Effect.map(HttpLayerRouter.params, (params) => params.product ?? "")

    const soldPage = (sale: Sale, product: Product) => {
      const paid =
        sale.amountCents === 0
          ? ""
          : ` You paid ${money(sale.amountCents)}${sale.test ? " (test mode: no money moved)" : ""}.`
      return notePage({
        base: url.base,
        title: "Thank you",
        message:
          product.kind === "question"
            ? `Your question is on its way to the seller.${paid} We emailed ${sale.buyerEmail} the link to the page where the answer will be.`
            : `You now have access to ${product.fields.title}.${paid} We sent the access email to ${sale.buyerEmail}.`
      })
    }

    /**
     * Where the live processor sends the buyer after paying: the sale once the processor's event has landed (it
     * usually has), else word that the payment is being confirmed. The page never sells: only the signed event does.
     */
    const done = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const productId = yield* productIdOf
        const attempt = new URL(request.url, url.base).searchParams.get("attempt") ?? ""
        const found = yield* checkout.soldBy(productId, attempt)
        if (Option.isNone(found)) {
          return notePage({
            base: url.base,
            title: "Not found",
            message: "There is no such order. If you paid, the access email is on its way.",
            status: 404
          })
        }
        const outcome = found.value
        if (outcome.status === "sold") return soldPage(outcome.sale, outcome.product)
        if (outcome.status === "hosted" && outcome.checkout.state === "completed") {
          return notePage({
            base: url.base,
            title: "Thank you",
            message: `Your payment went through. We sent the access email to ${outcome.checkout.email}.`
          })
        }
        return notePage({
          base: url.base,
          title: "Confirming your payment",
          message:
            "Thank you. Your payment is being confirmed; this takes a few seconds. Reload this page to see your order, or look for the access email."
        })
      })

    const show = (
      request: HttpServerRequest,
      productId: string,
      code: string,
      attribution: Record<string, string>,
      shown: CheckoutShown = {}
    ) =>
      Effect.gen(function* () {
        const offered = yield* checkout.offer(productId, code)
        if (offered.status === "unavailable") return unavailablePage(offered.unavailable)
        const { session, cookies } = yield* ensureSession(sessions, request, url)
        const answer = checkoutPage({
          base: url.base,
          offer: offered.offer,
          csrf: yield* sessions.formToken(session, purposeOf(productId)),
          attribution,
          ...shown
        })
        return HttpServerResponse.mergeCookies(answer, cookies)
      })

    /**
     * The affiliate code a visit counts for: the link's `?via=` when it is an active affiliate's of this product (then
     * remembered in a cookie for the program's days), else the cookie of an earlier visit. Another product's or
     * another store's code counts for nothing.
     */
    const affiliateOf = (request: HttpServerRequest, productId: string, via: string | null) =>
      Effect.gen(function* () {
        const remembered = request.cookies[affiliateCookieName(productId)]
        const given = via?.trim() ?? ""
        if (given !== "") {
          const found = yield* affiliates.forLink(productId, given)
          if (Option.isSome(found)) {
            const { affiliate, program } = found.value
            return { code: affiliate.code, cookie: affiliateCookie(productId, affiliate.code, url, program.cookieDays) }
          }
        }
        if (remembered === undefined || remembered === "") return undefined
        const still = yield* affiliates.forLink(productId, remembered)
        return Option.isSome(still) ? { code: still.value.affiliate.code, cookie: undefined } : undefined
      })

    const open = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const productId = yield* productIdOf
        const query = new URL(request.url, url.base).searchParams
        // Back from Stripe's page without paying: what that page held goes back before this one is shown.
        const cancelled = query.get("cancelled")
        if (cancelled !== null) yield* checkout.releaseHosted(productId, cancelled)
        const { via: _via, ...attribution } = attributionOf(query, request.headers.referer, ownOrigin)
        const affiliate = yield* affiliateOf(request, productId, query.get("via"))
        const page = yield* show(request, productId, query.get("code") ?? "", {
          ...attribution,
          ...(affiliate === undefined ? {} : { via: affiliate.code })
        })
        return affiliate?.cookie === undefined ? page : HttpServerResponse.mergeCookies(page, affiliate.cookie)
      })

    const buy = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const productId = yield* productIdOf
        // The form's token is spent in the sale's transaction (below), so a form sent twice at once waits for the
        // first to finish and is then answered with its sale.
        const checked = yield* admitted(request, `checkout:${productId}`, purposeOf(productId), { spendToken: false })
        if ("refused" in checked) return checked.refused
        const fields = checked.fields
        const field = (name: string) => fields.get(name) ?? ""
        const { via: _via, ...carried } = attributionOf(fields, undefined, ownOrigin)
        // The code the page carried, or the cookie of an earlier visit, when it still counts.
        const affiliate = yield* affiliateOf(request, productId, fields.get("via"))
        const attribution: Record<string, string> = {
          ...carried,
          ...(affiliate === undefined ? {} : { via: affiliate.code })
        }
        // What the buyer typed comes back on a refused form, except the card's number and security code.
        const typed = {
          choice: field("choice"),
          email: field("email"),
          name: field("name"),
          question: field("question"),
          card_expiry: field("card_expiry")
        }
        const again = (shown: CheckoutShown) =>
          show(request, productId, field("code"), attribution, {
            typed,
            ...shown
          })
        // A bot filled the field no person sees: it is told what a person would be, and nothing happens.
        if (field("website") !== "") {
          return notePage({
            base: url.base,
            title: "Thank you",
            message: "Your order was received."
          })
        }
        if (field("authenticated") === "no") {
          return yield* again({
            alert: "The payment was not confirmed, so no money was taken. Try again or use another card.",
            status: 402
          })
        }
        const card =
          field("card_number") === "" && field("card_expiry") === "" && field("card_cvc") === ""
            ? null
            : {
                number: field("card_number"),
                expiry: field("card_expiry"),
                cvc: field("card_cvc")
              }
        const order: CheckoutRequest = {
          productId,
          choice: field("choice"),
          email: field("email"),
          name: field("name"),
          code: field("code"),
          question: field("question"),
          card,
          authenticated: field("authenticated") === "yes",
          attempt: field("attempt"),
          attribution: {
            utmSource: attribution.utm_source ?? null,
            utmMedium: attribution.utm_medium ?? null,
            utmCampaign: attribution.utm_campaign ?? null,
            utmContent: attribution.utm_content ?? null,
            utmTerm: attribution.utm_term ?? null,
            fbclid: attribution.fbclid ?? null,
            referrer: attribution.referrer ?? null,
            affiliate: attribution.via ?? null
          }
        }
        const decided = yield* transactor.withTransaction(
          Effect.gen(function* () {
            if (!(yield* spendFormToken(sessions, checked.session, purposeOf(productId), field("csrf")))) {
              const before = yield* checkout.soldBy(productId, field("attempt"))
              return Option.getOrElse(before, () => "expired" as const)
            }
            return yield* checkout.buy(order)
          })
        )
        if (decided === "expired") return errors.formExpired("Go back, reload the page and send it again.")
        // The live processor's page is opened after the transaction: the processor is called over the network.
        const outcome = decided.status === "hosted" ? yield* checkout.openHosted(decided.checkout) : decided
        switch (outcome.status) {
          case "redirect":
            return redirectTo(outcome.url, 303)
          case "hosted":
            return yield* again({ alert: "Something went wrong opening the payment page. Try again.", status: 503 })
          case "sold":
            return soldPage(outcome.sale, outcome.product)
          case "unavailable":
            return unavailablePage(outcome.unavailable)
          case "refused":
            return yield* again({ errors: outcome.errors, status: 422 })
          case "declined":
            return yield* again({ alert: outcome.message, status: 402 })
          case "processor_unavailable":
            return yield* again({ alert: outcome.message, status: 503 })
          case "requires_authentication": {
            const { session, cookies } = yield* ensureSession(sessions, request, url)
            const answer = authenticationPage({
              base: url.base,
              productId,
              csrf: yield* sessions.formToken(session, purposeOf(productId)),
              fields,
              message: outcome.message
            })
            return HttpServerResponse.mergeCookies(answer, cookies)
          }
          case "turned_away":
            return outcome.waitlisted
              ? notePage({
                  base: url.base,
                  title: "You are on the waitlist",
                  message: "We will let you know by email when you can buy it."
                })
              : outcome.reason === "waitlist_mode"
                ? notePage({
                    base: url.base,
                    title: "You already have it",
                    message: "You already have access to this product: look for the access email we sent you."
                  })
                : yield* again({ alert: "Sorry, it has sold out.", status: 409 })
        }
      })

    yield* router.addAll([
      HttpLayerRouter.route("GET", "/c/:product", (request) => errors.answerDefects(open(request))),
      HttpLayerRouter.route("GET", "/c/:product/done", (request) => errors.answerDefects(done(request))),
      HttpLayerRouter.route("POST", "/c/:product", (request) => errors.answerDefects(buy(request)))
    ])
  })
)
