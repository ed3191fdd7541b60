import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { WorkspacesRepo } from "@svc/core/accounts"
import { type Access, ApiKeys, type BrowserSession, BrowserSessions, Level, OAuthTokens, Part } from "@svc/core/auth"
import { Credits } from "@svc/core/credits"
import { ProcessorSetup, STRIPE_CONNECT_RETURN_PATH, StorePages, StoreSetup, stripeWebhookPath } from "@svc/core/store"
import { parseDefaultToolsets } from "@svc/core/tools"
import { Clock, Effect, Either, type Layer, Option } from "effect"
import {
  clearedSessionCookie,
  errorPages,
  existingSession,
  readPostedForm,
  redirectTo,
  sameOrigin,
  signInPath,
  spendFormToken
} from "../browser/index.js"
import type { PublicUrl } from "../config.js"
import { currentAuthUrl } from "../oauth/config.js"
import { settingsPage } from "./page.js"

const SETTINGS_FORM = "settings"
/** The purpose of a Stripe Connect `state`: one use, by the browser session that started it, for that store. */
const connectPurpose = (workspaceId: string) => `stripe-connect:${workspaceId}`

const notices: Record<string, string> = {
  "key-revoked": "The API key was revoked. It stops working at once.",
  "app-disconnected": "The application was disconnected. Its tokens stop working at once.",
  "store-saved": "The store settings were saved.",
  "stripe-connected": "Stripe is connected: the store's checkout now takes payments on Stripe.",
  "stripe-disconnected": "Stripe is disconnected, and the card processor is off."
}

/** The access a create-key form asks for: full, or custom with a level per part (at least one on). */
const accessFromForm = (form: URLSearchParams): Access | string => {
  if (form.get("access") !== "custom") return { kind: "full" }
  const parts: Partial<Record<Part, Level>> = {}
  for (const part of Part.literals) {
    const level = form.get(`part_${part}`) ?? "off"
    if (!(Level.literals as ReadonlyArray<string>).includes(level))
      return `the level of ${part} must be off, read or edit`
    if (level !== "off") parts[part] = level as Level
  }
  return Object.keys(parts).length === 0
    ? "a Custom key needs at least one part on Read or Edit"
    : { kind: "custom", parts }
}

/** `GET /settings` and its forms: create and revoke API keys, disconnect OAuth applications, sign out. */
export const SettingsRoutes: Layer.Layer<
  never,
  never,
  | HttpLayerRouter.HttpRouter
  | PublicUrl
  | ApiKeys
  | OAuthTokens
  | BrowserSessions
  | Credits
  | WorkspacesRepo
  | StoreSetup
  | ProcessorSetup
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const auth = yield* currentAuthUrl
    const keys = yield* ApiKeys
    const tokens = yield* OAuthTokens
    const sessions = yield* BrowserSessions
    const credits = yield* Credits
    const workspaces = yield* WorkspacesRepo
    const storeSetup = yield* StoreSetup
    const processorSetup = yield* ProcessorSetup
    const storePages = yield* StorePages

    /** The store of the account's default workspace (the one `svc store set` and the store tools default to). */
    const ownStore = (accountId: string) =>
      Effect.gen(function* () {
        const workspace = yield* workspaces.findDefault(accountId)
        if (Option.isNone(workspace) || workspace.value.ownerId !== accountId) return Option.none()
        return yield* workspaces.findStore(workspace.value.id)
      })
    const errors = errorPages(auth.base)
    const withDefectsAnswered = errors.answerDefects
    const signInFirst = redirectTo(signInPath(auth.base), 303)

    const render = (
      session: BrowserSession,
      extra: {
        created?: { name: string; token: string; access: Access; toolsets: ReadonlyArray<Part> | null }
        notice?: string | undefined
        error?: string
        status?: number
      } = {}
    ) =>
      Effect.gen(function* () {
        const account = yield* sessions.accountOf(session)
        if (Option.isNone(account)) return signInFirst
        return settingsPage({
          base: auth.base,
          email: account.value.email,
          csrf: yield* sessions.formToken(session, SETTINGS_FORM),
          keys: yield* keys.list(account.value.id),
          connections: yield* tokens.connections(account.value.id),
          credits: yield* credits.balance(account.value.id),
          store: yield* Option.match(yield* ownStore(account.value.id), {
            onNone: () => Effect.succeed(undefined),
            onSome: (store) =>
              Effect.gen(function* () {
                return {
                  handle: store.handle,
                  name: store.name,
                  settings: yield* storeSetup.get(store.workspaceId),
                  processor: Option.getOrNull(yield* processorSetup.status(store.workspaceId)),
                  stripeConnect: processorSetup.connectOffered,
                  stripeWebhookUrl: `${storePages.publicBase}${stripeWebhookPath(store.workspaceId)}`
                }
              })
          }),
          now: yield* Clock.currentTimeMillis,
          ...extra
        })
      })

    /** A posted settings form from a signed-in session, its token used up; or the answer that refuses it. */
    const acceptForm = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        if (!sameOrigin(request, auth)) return { refused: errors.crossSite() }
        const read = yield* Effect.either(readPostedForm(request))
        if (read._tag === "Left") return { refused: errors.error("Request refused", read.left.message) }
        const form = read.right
        const session = yield* existingSession(sessions, request, auth)
        if (Option.isNone(session) || session.value.accountId === null) return { refused: signInFirst }
        if (!(yield* spendFormToken(sessions, session, SETTINGS_FORM, form.get("csrf") ?? ""))) {
          return { refused: errors.formExpired("Reload the settings page and try again.") }
        }
        return { form, session: session.value, accountId: session.value.accountId }
      })

    const show = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const session = yield* existingSession(sessions, request, auth)
        if (Option.isNone(session) || session.value.accountId === null) return signInFirst
        const notice = new URL(request.url, "http://localhost").searchParams.get("notice") ?? ""
        return yield* render(session.value, { notice: notices[notice] })
      })

    const createKey = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const accepted = yield* acceptForm(request)
        if ("refused" in accepted) return accepted.refused
        const { form, session, accountId } = accepted
        const access = accessFromForm(form)
        if (typeof access === "string") return yield* render(session, { error: access, status: 422 })
        const toolsets = parseDefaultToolsets(form.getAll("toolset"))
        if (Either.isLeft(toolsets)) return yield* render(session, { error: toolsets.left.message, status: 422 })
        const days = (form.get("expires_in_days") ?? "").trim()
        const created = yield* keys
          .create(accountId, {
            name: form.get("name") ?? undefined,
            access,
            toolsets: toolsets.right,
            expiresInDays: days === "" ? undefined : Number(days)
          })
          .pipe(Effect.either)
        if (created._tag === "Left") return yield* render(session, { error: created.left.message, status: 422 })
        return yield* render(session, {
          created: {
            name: created.right.key.name,
            token: created.right.token,
            access,
            toolsets: created.right.key.toolsets
          },
          status: 201
        })
      })

    const revokeKey = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const accepted = yield* acceptForm(request)
        if ("refused" in accepted) return accepted.refused
        const revoked = yield* keys.revoke(accepted.form.get("key_id") ?? "", accepted.accountId).pipe(Effect.either)
        if (revoked._tag === "Left")
          return yield* render(accepted.session, { error: revoked.left.message, status: 404 })
        return redirectTo(`${auth.base}/settings?notice=key-revoked`, 303)
      })

    const disconnect = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const accepted = yield* acceptForm(request)
        if ("refused" in accepted) return accepted.refused
        const done = yield* tokens
          .disconnect(accepted.accountId, accepted.form.get("client_id") ?? "")
          .pipe(Effect.either)
        if (done._tag === "Left") return yield* render(accepted.session, { error: done.left.message, status: 404 })
        return redirectTo(`${auth.base}/settings?notice=app-disconnected`, 303)
      })

    const saveStore = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const accepted = yield* acceptForm(request)
        if ("refused" in accepted) return accepted.refused
        const store = yield* ownStore(accepted.accountId)
        if (Option.isNone(store)) {
          return yield* render(accepted.session, { error: "Your workspace has no store.", status: 404 })
        }
        const supportEmail = (accepted.form.get("support_email") ?? "").trim()
        const name = accepted.form.get("name")
        // The form always sends its fields; an unticked box is left out of the post, which means off.
        const saved = yield* storeSetup
          .set(store.value.workspaceId, {
            name: name ?? undefined,
            supportEmail: supportEmail === "" ? null : supportEmail,
            cardProcessor: accepted.form.get("card_processor") ?? undefined,
            emailListAddBuyers: accepted.form.get("email_list_add_buyers") === "on",
            emailDoubleOptIn: accepted.form.get("email_double_opt_in") === "on"
          })
          .pipe(Effect.either)
        if (saved._tag === "Left") return yield* render(accepted.session, { error: saved.left.message, status: 422 })
        return redirectTo(`${auth.base}/settings?notice=store-saved`, 303)
      })

    /** The owner's store, or the page that says there is none. */
    const acceptStoreForm = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const accepted = yield* acceptForm(request)
        if ("refused" in accepted) return { refused: accepted.refused }
        const store = yield* ownStore(accepted.accountId)
        if (Option.isNone(store)) {
          return { refused: yield* render(accepted.session, { error: "Your workspace has no store.", status: 404 }) }
        }
        return { ...accepted, workspaceId: store.value.workspaceId }
      })

    const connectStripe = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const accepted = yield* acceptStoreForm(request)
        if ("refused" in accepted) return accepted.refused
        const connected = yield* processorSetup
          .connect(accepted.workspaceId, {
            secretKey: accepted.form.get("secret_key") ?? "",
            webhookSecret: accepted.form.get("webhook_secret") ?? ""
          })
          .pipe(Effect.either)
        if (connected._tag === "Left") {
          const failure = connected.left
          return yield* render(accepted.session, {
            error: failure._tag === "InvalidInput" ? failure.errors.map((e) => e.message).join(" ") : failure.message,
            status: failure._tag === "InvalidInput" ? 422 : 503
          })
        }
        return redirectTo(`${auth.base}/settings?notice=stripe-connected`, 303)
      })

    /**
     * Starts Stripe Connect: the owner is sent to Stripe to authorize the server's platform, with a `state` that only
     * this browser session can bring back, once (so no one can attach their Stripe account to another's store).
     */
    const startConnect = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const accepted = yield* acceptStoreForm(request)
        if ("refused" in accepted) return accepted.refused
        const state = yield* sessions.formToken(accepted.session, connectPurpose(accepted.workspaceId))
        return Option.match(processorSetup.connectUrl(state), {
          onNone: () =>
            errors.error("Stripe Connect is not offered", "This server connects Stripe with a secret key only."),
          onSome: (url) => redirectTo(url, 303)
        })
      })

    /** Where Stripe sends the owner back: the code is redeemed for their account, which then takes the payments. */
    const returnFromConnect = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const session = yield* existingSession(sessions, request, auth)
        if (Option.isNone(session) || session.value.accountId === null) return signInFirst
        const store = yield* ownStore(session.value.accountId)
        if (Option.isNone(store))
          return yield* render(session.value, { error: "Your workspace has no store.", status: 404 })
        const query = new URL(request.url, auth.base).searchParams
        const workspaceId = store.value.workspaceId
        if (!(yield* spendFormToken(sessions, session, connectPurpose(workspaceId), query.get("state") ?? ""))) {
          return errors.formExpired("Start connecting Stripe again from the settings page.")
        }
        const refused = query.get("error")
        if (refused !== null) {
          const why = query.get("error_description") ?? refused
          return yield* render(session.value, { error: `Stripe was not connected: ${why}`, status: 400 })
        }
        const done = yield* Effect.either(processorSetup.completeConnect(workspaceId, query.get("code") ?? ""))
        if (done._tag === "Left") {
          const failure = done.left
          return yield* render(session.value, {
            error: failure._tag === "InvalidInput" ? failure.errors.map((e) => e.message).join(" ") : failure.message,
            status: failure._tag === "InvalidInput" ? 422 : failure._tag === "Conflict" ? 409 : 503
          })
        }
        return redirectTo(`${auth.base}/settings?notice=stripe-connected`, 303)
      })

    const disconnectStripe = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const accepted = yield* acceptStoreForm(request)
        if ("refused" in accepted) return accepted.refused
        const done = yield* Effect.either(processorSetup.disconnect(accepted.workspaceId))
        if (done._tag === "Left") return yield* render(accepted.session, { error: done.left.message, status: 404 })
        return redirectTo(`${auth.base}/settings?notice=stripe-disconnected`, 303)
      })

    const signOut = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const accepted = yield* acceptForm(request)
        if ("refused" in accepted) return accepted.refused
        yield* sessions.signOut(accepted.session)
        return HttpServerResponse.mergeCookies(redirectTo(signInPath(auth.base), 303), clearedSessionCookie(auth))
      })

    yield* router.addAll([
      HttpLayerRouter.route("GET", "/settings", (request) => withDefectsAnswered(show(request))),
      HttpLayerRouter.route("POST", "/settings/keys", (request) => withDefectsAnswered(createKey(request))),
      HttpLayerRouter.route("POST", "/settings/keys/revoke", (request) => withDefectsAnswered(revokeKey(request))),
      HttpLayerRouter.route("POST", "/settings/apps/revoke", (request) => withDefectsAnswered(disconnect(request))),
      HttpLayerRouter.route("POST", "/settings/store", (request) => withDefectsAnswered(saveStore(request))),
      HttpLayerRouter.route("POST", "/settings/store/stripe", (request) => withDefectsAnswered(connectStripe(request))),
      HttpLayerRouter.route("POST", "/settings/store/stripe/disconnect", (request) =>
        withDefectsAnswered(disconnectStripe(request))
      ),
      HttpLayerRouter.route("POST", "/settings/store/stripe/connect", (request) =>
        withDefectsAnswered(startConnect(request))
      ),
      HttpLayerRouter.route("GET", STRIPE_CONNECT_RETURN_PATH, (request) =>
        withDefectsAnswered(returnFromConnect(request))
      ),
      HttpLayerRouter.route("POST", "/settings/sign-out", (request) => withDefectsAnswered(signOut(request)))
    ])
  })
)
