import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import {
  type BrowserSession,
  BrowserSessions,
  type OAuthClient,
  OAuthAuthorization,
  type PendingAuthorization,
  redirectHostOf
} from "@svc/core/auth"
import { Effect, type Layer, Option } from "effect"
import {
  ensureSession,
  errorPages,
  existingSession,
  type FieldHoldsNul,
  hidden,
  html,
  readParameters,
  readPostedForm,
  redirectTo,
  sameOrigin,
  signedInCookie,
  signInPath,
  spendFormToken
} from "../browser/index.js"
import { PublicUrl } from "../config.js"
import { currentAuthUrl, protectedResources } from "./config.js"
import { queryPairs, withQuery } from "./http-util.js"
import { consentPage, signInPage } from "./pages.js"

/** Form purposes: each single-use token is good for one form of one pending request. */
const signInPurpose = (pendingId: string | undefined) =>
  pendingId === undefined ? "sign-in" : `authorize:${pendingId}`
const consentPurpose = (pendingId: string) => `consent:${pendingId}`

/** What every error page of the authorization says last: the person came from an application, and goes back to it. */
const CONNECT_AGAIN =
  "Go back to the application and try connecting again. If it keeps happening, tell the application's developer."

/** What a sign-in page shows again after a refused sign-in: the error, the email typed, the status. */
interface Shown {
  readonly error?: string
  readonly email?: string
  readonly status?: number
}

const clientLabel = (client: OAuthClient) => client.name ?? "An application"

/** `GET /oauth/authorize`, the sign-in and consent pages and their form posts. */
export const OAuthAuthorizeRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | PublicUrl | OAuthAuthorization | BrowserSessions
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const url = yield* PublicUrl
    const auth = yield* currentAuthUrl
    const authorization = yield* OAuthAuthorization
    const sessions = yield* BrowserSessions
    const resources = protectedResources(url)
    const errors = errorPages(auth.base, CONNECT_AGAIN)
    const withDefectsAnswered = errors.answerDefects
    const pageError = errors.error
    const crossSite = () => errors.crossSite("This form was sent from another site, so it was not accepted.")
    const formExpired = () => errors.formExpired("The form was already used or is too old. Go back and try again.")
    const nulRefused = (error: FieldHoldsNul) => Effect.succeed(pageError("Request refused", error.message))

    const signInFor = (
      session: BrowserSession,
      pending: PendingAuthorization,
      client: OAuthClient,
      shown: Shown = {}
    ) =>
      Effect.map(sessions.formToken(session, signInPurpose(pending.id)), (token) =>
        signInPage({
          base: auth.base,
          action: signInPath(auth.base),
          fields: html`${hidden("request", pending.id)}${hidden("csrf", token)}`,
          intro: `Sign in to connect ${clientLabel(client)} to your account.`,
          ...shown
        })
      )

    const consentFor = (session: BrowserSession, pending: PendingAuthorization, client: OAuthClient) =>
      Effect.gen(function* () {
        const account = yield* sessions.accountOf(session)
        if (Option.isNone(account)) return yield* signInFor(session, pending, client)
        const token = yield* sessions.formToken(session, consentPurpose(pending.id))
        return consentPage({
          base: auth.base,
          clientName: clientLabel(client),
          redirectHost: redirectHostOf(pending.redirectUri),
          scopes: pending.scopes,
          audience: pending.audience,
          resource: pending.resource,
          accountEmail: account.value.email,
          fields: html`${hidden("request", pending.id)}${hidden("csrf", token)}`
        })
      })

    const authorize = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const checked = yield* authorization.check(queryPairs(request), resources)
        const { session, cookies } = yield* ensureSession(sessions, request, auth)
        const pending = yield* authorization.begin(checked, session.hash)
        const shown =
          session.accountId === null
            ? yield* signInFor(session, pending, checked.client)
            : yield* consentFor(session, pending, checked.client)
        return HttpServerResponse.mergeCookies(shown, cookies)
      }).pipe(
        Effect.catchTags({
          AuthorizePageError: (error) => Effect.succeed(pageError("This connection cannot continue", error.message)),
          AuthorizeRedirectError: (error) =>
            Effect.succeed(
              redirectTo(
                withQuery(error.redirectUri, {
                  error: error.error,
                  error_description: error.description,
                  ...(error.state === null ? {} : { state: error.state }),
                  iss: auth.base
                }),
                302
              )
            )
        })
      )

    const signIn = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        if (!sameOrigin(request, auth)) return crossSite()
        const form = yield* readPostedForm(request)
        const session = yield* existingSession(sessions, request, auth)
        if (Option.isNone(session)) {
          return pageError("Your session expired", "Go back to the application and connect again.")
        }
        const pendingId = form.get("request") ?? undefined
        const found =
          pendingId === undefined ? Option.none() : yield* authorization.pending(pendingId, session.value.hash)
        if (pendingId !== undefined && Option.isNone(found)) {
          return pageError("This request has expired", "Go back to the application and connect again.")
        }
        if (!(yield* spendFormToken(sessions, session, signInPurpose(pendingId), form.get("csrf") ?? ""))) {
          return formExpired()
        }
        const email = form.get("email") ?? ""
        const result = yield* sessions.signIn(session.value, email, form.get("password") ?? "")
        if ("refused" in result) {
          const error =
            result.refused === "too-many-attempts"
              ? "Too many sign-in attempts. Wait a few minutes and try again."
              : "That email and password do not match an account."
          const status = result.refused === "too-many-attempts" ? 429 : 401
          if (Option.isSome(found)) {
            return yield* signInFor(session.value, found.value.pending, found.value.client, { error, email, status })
          }
          return yield* settingsSignIn(session.value, { error, email, status })
        }
        const cookies = yield* signedInCookie(result.signedIn.cookie, auth)
        return HttpServerResponse.mergeCookies(
          redirectTo(
            pendingId === undefined
              ? `${auth.base}/settings`
              : `${auth.base}/oauth/consent?request=${encodeURIComponent(pendingId)}`,
            303
          ),
          cookies
        )
      })

    const settingsSignIn = (session: BrowserSession, shown: Shown = {}) =>
      Effect.map(sessions.formToken(session, signInPurpose(undefined)), (token) =>
        signInPage({
          base: auth.base,
          action: signInPath(auth.base),
          fields: hidden("csrf", token),
          intro: "Sign in to manage your API keys and connected applications.",
          ...shown
        })
      )

    const consent = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const query = yield* readParameters(new URL(request.url, "http://localhost").search.slice(1))
        const pendingId = query.get("request") ?? ""
        const session = yield* existingSession(sessions, request, auth)
        const found = Option.isNone(session)
          ? Option.none()
          : yield* authorization.pending(pendingId, session.value.hash)
        if (Option.isNone(session) || Option.isNone(found)) {
          return pageError("This request has expired", "Go back to the application and connect again.")
        }
        return yield* consentFor(session.value, found.value.pending, found.value.client)
      })

    const decide = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        if (!sameOrigin(request, auth)) return crossSite()
        const form = yield* readPostedForm(request)
        const pendingId = form.get("request") ?? ""
        const session = yield* existingSession(sessions, request, auth)
        if (Option.isNone(session) || session.value.accountId === null) {
          return pageError("Sign in first", "Your session ended. Go back to the application and connect again.", 403)
        }
        if (!(yield* spendFormToken(sessions, session, consentPurpose(pendingId), form.get("csrf") ?? ""))) {
          return formExpired()
        }
        const decision = form.get("decision")
        if (decision !== "approve" && decision !== "deny") {
          return pageError("Choose Approve or Deny", "The answer must be Approve or Deny.")
        }
        const answer = yield* authorization.decide(
          pendingId,
          session.value.hash,
          session.value.accountId,
          decision === "approve"
        )
        if (Option.isNone(answer)) {
          return pageError("This request has expired", "It was already answered or is too old. Connect again.")
        }
        return redirectTo(withQuery(answer.value.redirectUri, { ...answer.value.params, iss: auth.base }), 303)
      })

    const settingsEntry = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const { session, cookies } = yield* ensureSession(sessions, request, auth)
        return HttpServerResponse.mergeCookies(yield* settingsSignIn(session), cookies)
      })

    yield* router.addAll([
      HttpLayerRouter.route("GET", "/oauth/authorize", (request) => withDefectsAnswered(authorize(request))),
      HttpLayerRouter.route("POST", "/oauth/sign-in", (request) =>
        withDefectsAnswered(Effect.catchTag(signIn(request), "FieldHoldsNul", nulRefused))
      ),
      HttpLayerRouter.route("GET", "/oauth/sign-in", (request) => withDefectsAnswered(settingsEntry(request))),
      HttpLayerRouter.route("GET", "/oauth/consent", (request) =>
        withDefectsAnswered(Effect.catchTag(consent(request), "FieldHoldsNul", nulRefused))
      ),
      HttpLayerRouter.route("POST", "/oauth/consent", (request) =>
        withDefectsAnswered(Effect.catchTag(decide(request), "FieldHoldsNul", nulRefused))
      )
    ])
  })
)
