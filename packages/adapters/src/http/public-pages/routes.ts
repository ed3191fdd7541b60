import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { type Store, WorkspacesRepo } from "@svc/core/accounts"
import { BrowserSessions } from "@svc/core/auth"
import { RateLimiter } from "@svc/core/limits"
import { MediaBlobs, MediaLibrary, thumbnailKey } from "@svc/core/media"
import { type Form, FormsRepo, StoreCreatorPage, StoreForms, StoreSignups } from "@svc/core/store"
import { Effect, type Layer, Option } from "effect"
import { ensureSession, errorPages } from "../browser/index.js"
import { PublicUrl } from "../config.js"
import { type FieldErrors, formPage, notePage, type Shown, storePage } from "./pages.js"
import { makePublicPost } from "./public-post.js"

const SIGNUP_FORM = "store-signup"
const formPurpose = (formId: string) => `store-form:${formId}`

/** Field errors of a refused input, by field; the whole message under `email` when it names no field. */
const errorsOf = (error: { readonly errors: ReadonlyArray<{ readonly path: string; readonly message: string }> }) =>
  Object.fromEntries(error.errors.map((problem) => [problem.path || "email", problem.message])) as FieldErrors

/**
 * The stores' public pages: `/s/<handle>` (name, live products, the email sign-up form, links to the forms),
 * `/s/<handle>/forms/<id>` (a form), and `/s/<handle>/confirm/<token>` (the double opt-in link). Server-rendered,
 * without scripts, never framed; every form carries a single-use token of the visitor's browser session and must come
 * from our own origin, a hidden field catches bots, and each address may post only so often.
 */
export const StorePagesRoutes: Layer.Layer<
  never,
  never,
  | HttpLayerRouter.HttpRouter
  | PublicUrl
  | BrowserSessions
  | WorkspacesRepo
  | StoreCreatorPage
  | MediaLibrary
  | MediaBlobs
  | FormsRepo
  | StoreForms
  | StoreSignups
  | RateLimiter
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const url = yield* PublicUrl
    const sessions = yield* BrowserSessions
    const workspaces = yield* WorkspacesRepo
    const creatorPages = yield* StoreCreatorPage
    const media = yield* MediaLibrary
    const blobs = yield* MediaBlobs
    const formsRepo = yield* FormsRepo
    const forms = yield* StoreForms
    const signups = yield* StoreSignups
    const limiter = yield* RateLimiter
    const errors = errorPages(url.base)
    const withDefectsAnswered = errors.answerDefects
    const notFound = notePage({ base: url.base, title: "Not found", message: "There is no such page.", status: 404 })

    const storeOf = Effect.flatMap(HttpLayerRouter.params, (params) =>
      workspaces.findStoreByHandle((params.handle ?? "").toLowerCase())
    )

    const formOf = (workspaceId: string) =>
      Effect.flatMap(HttpLayerRouter.params, (params) => formsRepo.find(workspaceId, params.id ?? ""))

    const showStore = (request: HttpServerRequest, store: Store, shown: Shown = {}) =>
      Effect.gen(function* () {
        const { session, cookies } = yield* ensureSession(sessions, request, url)
        const view = yield* creatorPages.publicView(store.workspaceId)
        const listed = yield* formsRepo.listPage(store.workspaceId, {}, { limit: 100, after: undefined })
        const page = storePage({
          base: url.base,
          store,
          view,
          forms: listed.rows,
          csrf: yield* sessions.formToken(session, SIGNUP_FORM),
          ...shown
        })
        return HttpServerResponse.mergeCookies(page, cookies)
      })

    const showForm = (request: HttpServerRequest, store: Store, form: Form, shown: Shown = {}) =>
      Effect.gen(function* () {
        const { session, cookies } = yield* ensureSession(sessions, request, url)
        const page = formPage({
          base: url.base,
          store,
          form,
          csrf: yield* sessions.formToken(session, formPurpose(form.id)),
          ...shown
        })
        return HttpServerResponse.mergeCookies(page, cookies)
      })

    const admitted = makePublicPost(url, sessions, limiter)

    const signUp = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const found = yield* storeOf
        if (Option.isNone(found)) return notFound
        const store = found.value
        const checked = yield* admitted(request, store.handle, SIGNUP_FORM)
        if ("refused" in checked) return checked.refused
        const fields = checked.fields
        const typed = {
          email: fields.get("email") ?? "",
          name: fields.get("name") ?? "",
          consent: fields.get("consent") ?? ""
        }
        const back = `${url.base}/s/${store.handle}`
        // A bot filled the field no person sees: it is told what a person would be, and nothing happens.
        if ((fields.get("website") ?? "") !== "") {
          return notePage({ base: url.base, title: "Thank you", message: "You are on the list.", back })
        }
        if (typed.consent !== "yes") {
          return yield* showStore(request, store, {
            errors: { consent: "Tick the box to agree to receive the store's emails." },
            typed,
            status: 422
          })
        }
        const outcome = yield* Effect.either(signups.signUp(store, url.base, { email: typed.email, name: typed.name }))
        if (outcome._tag === "Left") {
          return yield* showStore(request, store, { errors: errorsOf(outcome.left), typed, status: 422 })
        }
        return outcome.right === "joined"
          ? notePage({ base: url.base, title: "Thank you", message: "You are on the list.", back })
          : notePage({
              base: url.base,
              title: "Check your inbox",
              message: "We sent you an email with a link: open it to confirm, and you are on the list.",
              back
            })
      })

    const confirm = Effect.gen(function* () {
      const found = yield* storeOf
      if (Option.isNone(found)) return notFound
      const params = yield* HttpLayerRouter.params
      const done = yield* signups.confirm(found.value, params["*"] ?? "")
      return Option.isNone(done)
        ? notePage({
            base: url.base,
            title: "Link not valid",
            message: "This link is not valid or has expired. Sign up again on the store's page.",
            status: 404,
            back: `${url.base}/s/${found.value.handle}`
          })
        : notePage({
            base: url.base,
            title: "You are subscribed",
            message: `${done.value.email} is on the email list of ${found.value.name}.`
          })
    })

    const answerForm = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const store = yield* storeOf
        if (Option.isNone(store)) return notFound
        const form = yield* formOf(store.value.workspaceId)
        if (Option.isNone(form)) return notFound
        const checked = yield* admitted(request, store.value.handle, formPurpose(form.value.id))
        if ("refused" in checked) return checked.refused
        const fields = checked.fields
        const typed: Record<string, string> = Object.fromEntries(fields.entries())
        const back = `${url.base}/s/${store.value.handle}`
        if ((fields.get("website") ?? "") !== "") {
          return notePage({ base: url.base, title: "Thank you", message: "Your answers were sent.", back })
        }
        const answers = Object.fromEntries(
          form.value.questions.flatMap((q) => {
            const answer = fields.get(q.id)
            return answer === null ? [] : [[q.id, answer] as const]
          })
        )
        const sent = yield* Effect.either(
          forms.submit(store.value.workspaceId, form.value.id, {
            email: fields.get("email") ?? "",
            name: fields.get("name") ?? "",
            answers
          })
        )
        if (sent._tag === "Left") {
          if (sent.left._tag === "NotFound") return notFound
          return yield* showForm(request, store.value, form.value, {
            errors: errorsOf(sent.left),
            typed,
            status: 422
          })
        }
        return notePage({ base: url.base, title: "Thank you", message: "Your answers were sent.", back })
      })

    /**
     * The creator page's avatar, served from our own origin (the pages' policy loads images from nowhere else): its
     * preview (at most 320 px, WebP) when it has one, else the image itself.
     */
    const avatar = Effect.gen(function* () {
      const found = yield* storeOf
      if (Option.isNone(found)) return notFound
      const asset = yield* creatorPages.avatarFor(found.value.workspaceId)
      if (asset === null) return notFound
      const headers = {
        // The address stays when the seller picks another image: a short cache lets the change show soon.
        "cache-control": "public, max-age=300",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "cross-origin-resource-policy": "same-site"
      }
      return asset.thumbnail === null
        ? HttpServerResponse.stream(media.open(asset), {
            contentType: asset.mimeType,
            contentLength: asset.bytes,
            headers
          })
        : HttpServerResponse.stream(blobs.open(thumbnailKey(asset)), {
            contentType: asset.thumbnail.mimeType,
            contentLength: asset.thumbnail.bytes,
            headers
          })
    })

    yield* router.addAll([
      HttpLayerRouter.route("GET", "/s/:handle/avatar", () => withDefectsAnswered(avatar)),
      HttpLayerRouter.route("GET", "/s/:handle", (request) =>
        withDefectsAnswered(
          Effect.flatMap(storeOf, (store) =>
            Option.isNone(store) ? Effect.succeed(notFound) : showStore(request, store.value)
          )
        )
      ),
      HttpLayerRouter.route("POST", "/s/:handle/signup", (request) => withDefectsAnswered(signUp(request))),
      HttpLayerRouter.route("GET", "/s/:handle/confirm/*", () => withDefectsAnswered(confirm)),
      HttpLayerRouter.route("GET", "/s/:handle/forms/:id", (request) =>
        withDefectsAnswered(
          Effect.gen(function* () {
            const store = yield* storeOf
            if (Option.isNone(store)) return notFound
            const form = yield* formOf(store.value.workspaceId)
            return Option.isNone(form) ? notFound : yield* showForm(request, store.value, form.value)
          })
        )
      ),
      HttpLayerRouter.route("POST", "/s/:handle/forms/:id", (request) => withDefectsAnswered(answerForm(request)))
    ])
  })
)
