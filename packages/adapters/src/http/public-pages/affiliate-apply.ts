import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { WorkspacesRepo } from "@svc/core/accounts"
import { BrowserSessions } from "@svc/core/auth"
import { RateLimiter } from "@svc/core/limits"
import { ProductsRepo, StoreAffiliates } from "@svc/core/store"
import { Effect, type Layer, Option } from "effect"
import { ensureSession, errorPages, hidden, html, page } from "../browser/index.js"
import { PublicUrl } from "../config.js"
import { type FieldErrors, fieldError, honeypot, invalidAttrs, notePage, type Typed } from "./pages.js"
import { makePublicPost } from "./public-post.js"

const purposeOf = (productId: string) => `affiliate-apply:${productId}`

/** The application form: who they are, the code they would like, and a note to the seller. */
const applyPage = (options: {
  readonly base: string
  readonly action: string
  readonly storeName: string
  readonly productTitle: string
  readonly approval: boolean
  readonly csrf: string
  readonly errors?: FieldErrors
  readonly typed?: Typed
  readonly status?: number
}) => {
  const { errors = {}, typed = {} } = options
  return page({
    base: options.base,
    title: `Promote ${options.productTitle}`,
    ...(options.status === undefined ? {} : { status: options.status }),
    body: html`<section class="card" aria-labelledby="title">
<p class="muted">${options.storeName}</p>
<h1 id="title">Promote ${options.productTitle}</h1>
<p>Share your own link and earn a commission on every sale it brings.${options.approval ? " The seller reads each application first." : ""}</p>
<form method="post" action="${options.action}">
${hidden("csrf", options.csrf)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${typed.email ?? ""}"${invalidAttrs(errors, "email")}>
${fieldError(errors, "email")}
<label for="name">Name</label>
<input id="name" name="name" type="text" autocomplete="name" value="${typed.name ?? ""}"${invalidAttrs(errors, "name")}>
${fieldError(errors, "name")}
<label for="code">Your link's code (optional)</label>
<input id="code" name="code" type="text" autocomplete="off" aria-describedby="code-help" value="${typed.code ?? ""}"${invalidAttrs(errors, "code")}>
<p class="muted" id="code-help">3 to 32 lower-case letters, digits or dashes; left empty, one is made for you.</p>
${fieldError(errors, "code")}
<label for="note">How you would promote it (optional)</label>
<textarea id="note" name="note" rows="4"${invalidAttrs(errors, "note")}>${typed.note ?? ""}</textarea>
${fieldError(errors, "note")}
${honeypot}
<div class="actions"><button class="primary" type="submit">Apply</button></div>
</form>
</section>`
  })
}

/**
 * `/s/<handle>/affiliates/<product>`: the page where people apply to promote a product with a program on. With
 * approval they wait for the seller (`affiliate_application.created`); without, they are affiliates at once and the
 * answer shows their link. The form carries a session token and must come from our own origin.
 */
export const AffiliateApplyRoutes: Layer.Layer<
  never,
  never,
  | HttpLayerRouter.HttpRouter
  | PublicUrl
  | BrowserSessions
  | RateLimiter
  | WorkspacesRepo
  | ProductsRepo
  | StoreAffiliates
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const url = yield* PublicUrl
    const sessions = yield* BrowserSessions
    const workspaces = yield* WorkspacesRepo
    const products = yield* ProductsRepo
    const affiliates = yield* StoreAffiliates
    const admitted = makePublicPost(url, sessions, yield* RateLimiter)
    const errors = errorPages(url.base)
    const notFound = notePage({
      base: url.base,
      title: "Not found",
      message: "This product takes no affiliates.",
      status: 404
    })

    /** The store, the product and its program behind the page's address, while the program is on. */
    const placeOf = Effect.flatMap(HttpLayerRouter.params, (params) =>
      Effect.gen(function* () {
        const store = yield* workspaces.findStoreByHandle((params.handle ?? "").toLowerCase())
        if (Option.isNone(store)) return Option.none()
        const product = yield* products.find(store.value.workspaceId, params.product ?? "")
        if (Option.isNone(product) || product.value.status !== "live") return Option.none()
        const program = yield* affiliates.programOf(store.value.workspaceId, product.value.id)
        if (Option.isNone(program) || !program.value.active) return Option.none()
        return Option.some({ store: store.value, product: product.value, program: program.value })
      })
    )

    const show = (
      request: HttpServerRequest,
      place: Option.Option.Value<Effect.Effect.Success<typeof placeOf>>,
      shown: { readonly errors?: FieldErrors; readonly typed?: Typed; readonly status?: number } = {}
    ) =>
      Effect.gen(function* () {
        const { session, cookies } = yield* ensureSession(sessions, request, url)
        const answer = applyPage({
          base: url.base,
          action: `${url.base}/s/${place.store.handle}/affiliates/${encodeURIComponent(place.product.id)}`,
          storeName: place.store.name,
          productTitle: place.product.fields.title,
          approval: place.program.approval,
          csrf: yield* sessions.formToken(session, purposeOf(place.product.id)),
          ...shown
        })
        return HttpServerResponse.mergeCookies(answer, cookies)
      })

    const open = (request: HttpServerRequest) =>
      Effect.flatMap(placeOf, (place) => (Option.isNone(place) ? Effect.succeed(notFound) : show(request, place.value)))

    const apply = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const found = yield* placeOf
        if (Option.isNone(found)) return notFound
        const place = found.value
        const checked = yield* admitted(request, `affiliate:${place.product.id}`, purposeOf(place.product.id))
        if ("refused" in checked) return checked.refused
        const fields = checked.fields
        const typed = {
          email: fields.get("email") ?? "",
          name: fields.get("name") ?? "",
          code: fields.get("code") ?? "",
          note: fields.get("note") ?? ""
        }
        // A bot filled the field no person sees: it is told what a person would be, and nothing happens.
        if ((fields.get("website") ?? "") !== "") {
          return notePage({ base: url.base, title: "Thank you", message: "Your application was sent." })
        }
        const applied = yield* Effect.either(
          affiliates.apply(place.store.workspaceId, place.product.id, {
            email: typed.email,
            name: typed.name,
            ...(typed.code.trim() === "" ? {} : { code: typed.code }),
            note: typed.note
          })
        )
        if (applied._tag === "Right") {
          const { affiliate } = applied.right
          return notePage({
            base: url.base,
            title: "Thank you",
            message:
              affiliate.status === "active"
                ? `You are an affiliate of ${place.product.fields.title}. Share your link: ${affiliates.linkOf(affiliate)}`
                : `Your application to promote ${place.product.fields.title} was sent. You get an email with your link when the seller accepts it.`
          })
        }
        const error = applied.left
        switch (error._tag) {
          case "InvalidInput":
            return yield* show(request, place, {
              errors: Object.fromEntries(error.errors.map((e) => [e.path, e.message])),
              typed,
              status: 422
            })
          case "Conflict":
            return notePage({ base: url.base, title: "Already applied", message: error.message, status: 409 })
          default:
            return notFound
        }
      })

    yield* router.addAll([
      HttpLayerRouter.route("GET", "/s/:handle/affiliates/:product", (request) => errors.answerDefects(open(request))),
      HttpLayerRouter.route("POST", "/s/:handle/affiliates/:product", (request) => errors.answerDefects(apply(request)))
    ])
  })
)
