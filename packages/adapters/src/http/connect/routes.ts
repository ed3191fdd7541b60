import * as Cookies from "@effect/platform/Cookies"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { RateLimiter } from "@svc/core/limits"
import { MailSigner } from "@svc/core/mail"
import { type ConnectGrant, type MastodonApps, readConnectLink, Scheduling } from "@svc/core/scheduling"
import type { Secrets } from "@svc/core/shared"
import { Duration, Effect, type Layer, Option } from "effect"
import { errorPages, type Html, html, page, readPostedForm, redirectTo, sameOrigin } from "../browser/index.js"
import { makeCheckedFetch } from "../../http-sender/checked-fetch.js"
import { OutboundSettings } from "../../http-sender/config.js"
import { PublicUrl } from "../config.js"
import { requesterOf } from "../requester.js"
import { notePage } from "../public-pages/pages.js"
import { makeMastodonSignIn } from "./mastodon-sign-in.js"
import { newSignIn, readSignIn, SIGN_IN_MS } from "./sign-in-state.js"

/** Connect attempts one address may make in `CONNECT_WINDOW_MS`: wrong passwords cost the network, not only us. */
export const CONNECT_TRIES_PER_WINDOW = 20
export const CONNECT_WINDOW_MS = 10 * 60_000

const BLUESKY_DEFAULT_SERVICE = "https://bsky.social"

type Platform = "bluesky" | "mastodon"

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"])

/** Where a Mastodon instance sends the person back after they allowed svc, under the public address. */
export const MASTODON_CALLBACK_PATH = "/connect/mastodon/callback"

/** The cookie holding the browser's half of a Mastodon sign-in: its nonce and the connect link (sign-in-state.ts). */
const SIGN_IN_COOKIE = "svc_mastodon_sign_in"

/**
 * Whether `text` is a server's address: https with a host and no path; plain http only to this machine, and only
 * where loopback is allowed (`SVC_WEBHOOKS_ALLOW_LOOPBACK`, for a local network in development and tests).
 */
const serverAddress = (text: string, allowLoopback: boolean): boolean => {
  if (!URL.canParse(text)) return false
  const address = new URL(text)
  if (address.pathname !== "/" || address.search !== "" || address.username !== "") return false
  return (
    address.protocol === "https:" || (address.protocol === "http:" && allowLoopback && LOOPBACK.has(address.hostname))
  )
}

interface Typed {
  readonly serviceUrl?: string
  readonly identifier?: string
}

/**
 * The pages a person opens from `svc_connect_social_accounts`' link, `/connect/<token>`: a form per platform
 * (Bluesky: its server, the handle and an app password; Mastodon: the instance, to sign in there with OAuth, or an
 * access token from its Development settings), checked against the network by the platform's publisher before the
 * account is kept, its credentials sealed. The token is the person's right to connect to that workspace for an hour;
 * posts must come from our own pages, and each address may try only so often.
 *
 * Mastodon's sign-in: the page posts the instance; the server registers its app there on first use (kept per
 * instance), and sends the browser to the instance's authorization page with a signed `state`; the instance sends it
 * back to {@link MASTODON_CALLBACK_PATH} with a code, which becomes an access token, and the account is connected.
 */
export const ConnectRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | PublicUrl | Scheduling | MailSigner | RateLimiter | MastodonApps | Secrets
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const url = yield* PublicUrl
    const scheduling = yield* Scheduling
    const signer = yield* MailSigner
    const limiter = yield* RateLimiter
    const outbound = yield* OutboundSettings
    const errors = errorPages(url.base)
    const checked = yield* Effect.acquireRelease(
      Effect.sync(() => makeCheckedFetch({ allowLoopback: outbound.allowLoopback })),
      (fetch) => Effect.promise(fetch.close)
    )
    const signIn = yield* makeMastodonSignIn({
      redirectUri: `${url.base}${MASTODON_CALLBACK_PATH}`,
      clientName: "svc",
      website: url.base,
      dispatcher: checked.dispatcher,
      timeoutMs: 15_000
    })
    const context = yield* Effect.context<MailSigner | Secrets>()
    const startSignIn = (token: string, instance: string) => newSignIn(token, instance).pipe(Effect.provide(context))
    // Sent only to the callback, and only for the sign-in's life; Lax, so the instance's redirect back carries it.
    const signInCookie = (value: string, maxAge: Duration.DurationInput) =>
      Cookies.fromIterable([
        Cookies.unsafeMakeCookie(SIGN_IN_COOKIE, value, {
          path: `${new URL(url.base).pathname.replace(/\/+$/, "")}${MASTODON_CALLBACK_PATH}`,
          httpOnly: true,
          sameSite: "lax",
          maxAge,
          secure: url.base.startsWith("https:")
        })
      ])
    const expired = notePage({
      base: url.base,
      title: "Link not valid",
      message:
        "This link is not valid or has expired (links work for an hour). Ask your assistant for a new one: it comes from svc_connect_social_accounts.",
      status: 404
    })

    // The token holds dots, which end a `:param` in the router: it is read from the path's wildcard.
    const pathOf = Effect.map(HttpLayerRouter.params, (params) => {
      const rest = params["*"] ?? ""
      const slash = rest.lastIndexOf("/")
      return slash < 0
        ? { token: rest, platform: "" }
        : { token: rest.slice(0, slash), platform: rest.slice(slash + 1) }
    })

    const grantOf = (token: string) => readConnectLink(token).pipe(Effect.provideService(MailSigner, signer))

    const platformForm = (token: string, platform: Platform, typed: Typed, error: string | undefined): Html => {
      const action = `${url.base}/connect/${token}/${platform}`
      const problem = error === undefined ? html`` : html`<p class="error" role="alert">${error}</p>`
      return platform === "bluesky"
        ? html`<section class="card" aria-labelledby="bluesky">
<h2 id="bluesky">Bluesky</h2>
<p class="muted">Make an app password in Bluesky's Settings → Privacy and security → App passwords. Never give your main password.</p>
${problem}
<form method="post" action="${action}">
<label>Server <input name="serviceUrl" type="url" required value="${typed.serviceUrl ?? BLUESKY_DEFAULT_SERVICE}"></label>
<label>Handle <input name="identifier" required autocomplete="username" placeholder="you.bsky.social" value="${typed.identifier ?? ""}"></label>
<label>App password <input name="appPassword" type="password" required autocomplete="off"></label>
<button type="submit">Connect Bluesky</button>
</form>
</section>`
        : html`<section class="card" aria-labelledby="mastodon">
<h2 id="mastodon">Mastodon</h2>
<p class="muted">Give your instance's address: you sign in there and allow svc to read and post for you.</p>
${problem}
<form method="post" action="${action}">
<label>Instance <input name="serviceUrl" type="url" required placeholder="https://mastodon.social" value="${typed.serviceUrl ?? ""}"></label>
<button type="submit">Sign in with Mastodon</button>
</form>
<details>
<summary>or paste an access token</summary>
<p class="muted">On your instance, open Preferences → Development → New application, allow the scopes read and write, and paste its access token here.</p>
<form method="post" action="${action}">
<label>Instance <input name="serviceUrl" type="url" required placeholder="https://mastodon.social" value="${typed.serviceUrl ?? ""}"></label>
<label>Access token <input name="accessToken" type="password" required autocomplete="off"></label>
<button type="submit">Connect Mastodon</button>
</form>
</details>
</section>`
    }

    const connectPage = (
      token: string,
      grant: ConnectGrant,
      shown: {
        readonly platform?: Platform
        readonly typed?: Typed
        readonly error?: string
        readonly status?: number
      } = {}
    ) =>
      Effect.gen(function* () {
        const overview = yield* scheduling.overview(grant.workspaceId)
        const connected = overview.accounts
        const order: ReadonlyArray<Platform> =
          (shown.platform ?? grant.platform) === "mastodon" ? ["mastodon", "bluesky"] : ["bluesky", "mastodon"]
        const offered = order.filter((p) => scheduling.publishableTo.includes(p))
        return page({
          base: url.base,
          title: "Connect a social account",
          ...(shown.status === undefined ? {} : { status: shown.status }),
          body: html`<h1>Connect a social account</h1>
${
  connected.length === 0
    ? html`<p>No account is connected to this workspace yet.</p>`
    : html`<p>Connected: ${connected.map(
        (a, i) =>
          html`${i > 0 ? ", " : ""}<strong>${a.handle}</strong> (${a.platform}${a.status === "needs_reconnect" ? ", needs reconnecting" : ""})`
      )}. Connecting the same platform again replaces it.</p>`
}
${offered.map((p) => platformForm(token, p, p === shown.platform ? (shown.typed ?? {}) : {}, p === shown.platform ? shown.error : undefined))}
<p class="muted">This page works until ${grant.expiresAt.toUTCString()}.</p>`
        })
      })

    const show = Effect.gen(function* () {
      const { token, platform } = yield* pathOf
      const grant = platform === "" ? yield* grantOf(token) : Option.none()
      if (Option.isNone(grant)) return expired
      return yield* connectPage(token, grant.value)
    })

    const connect = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const { token, platform } = yield* pathOf
        if (platform !== "bluesky" && platform !== "mastodon") return expired
        const grant = yield* grantOf(token)
        if (Option.isNone(grant)) return expired
        if (!sameOrigin(request, url)) return errors.crossSite()
        const rate = yield* limiter.take(`connect:${requesterOf(request)}`, CONNECT_TRIES_PER_WINDOW, CONNECT_WINDOW_MS)
        if (!rate.allowed) {
          return notePage({
            base: url.base,
            title: "Too many tries",
            message: `Please wait ${Math.ceil(rate.retryAfterMs / 60_000)} minutes and try again.`,
            status: 429
          })
        }
        const fields = yield* readPostedForm(request).pipe(Effect.orElseSucceed(() => new URLSearchParams()))
        const serviceUrl = (fields.get("serviceUrl") ?? "").trim().replace(/\/+$/, "")
        const identifier = (fields.get("identifier") ?? "").trim().replace(/^@/, "")
        const typed: Typed = { serviceUrl, identifier }
        const refuse = (error: string, status = 422) =>
          connectPage(token, grant.value, { platform, typed, error, status })
        if (!serverAddress(serviceUrl, outbound.allowLoopback)) {
          return yield* refuse(
            "Give the server's https address, such as https://bsky.social or https://mastodon.social."
          )
        }
        if (platform === "mastodon" && !fields.has("accessToken")) {
          // Signing in on the instance: its authorization page, with a state that brings the browser back here.
          const instance = new URL(serviceUrl).origin
          const { state, cookie } = yield* startSignIn(token, instance)
          const authorize = yield* Effect.either(signIn.authorizeUrl(instance, state))
          if (authorize._tag === "Left")
            return yield* refuse(authorize.left.message, authorize.left.upstream ? 502 : 422)
          return HttpServerResponse.mergeCookies(
            redirectTo(authorize.right, 303),
            signInCookie(cookie, Duration.millis(SIGN_IN_MS))
          )
        }
        const credentials =
          platform === "bluesky"
            ? { identifier, appPassword: fields.get("appPassword") ?? "" }
            : { accessToken: (fields.get("accessToken") ?? "").trim() }
        const outcome = yield* Effect.either(
          scheduling.connectAccount(grant.value.workspaceId, platform, serviceUrl, credentials)
        )
        if (outcome._tag === "Left") return yield* refuse(outcome.left.message)
        return notePage({
          base: url.base,
          title: "Connected",
          message: `${outcome.right.handle} on ${platform} is connected. Your assistant can schedule posts to it now; you can close this page.`,
          back: `${url.base}/connect/${token}`
        })
      })

    const signInInvalid = notePage({
      base: url.base,
      title: "Sign-in not valid",
      message:
        "This Mastodon sign-in is not valid here or has expired. Open the connect link again in this browser and start over.",
      status: 400
    })

    /** The instance sends the person back here: with a code to exchange, or with an error when they said no. */
    const callback = Effect.gen(function* () {
      const request = yield* HttpServerRequest
      const query = new URL(request.url, url.origin).searchParams
      // The browser that started this sign-in, and no other, finishes it.
      const signInOf = yield* readSignIn(query.get("state") ?? "", request.cookies[SIGN_IN_COOKIE]).pipe(
        Effect.provideService(MailSigner, signer)
      )
      if (Option.isNone(signInOf)) return signInInvalid
      const signedIn = signInOf.value
      const grant = yield* grantOf(signedIn.connectToken)
      if (Option.isNone(grant)) return expired
      const done = (response: HttpServerResponse.HttpServerResponse) =>
        HttpServerResponse.mergeCookies(response, signInCookie("", 0))
      const host = new URL(signedIn.instance).host
      const refuse = (error: string, status: number) =>
        Effect.map(
          connectPage(signedIn.connectToken, grant.value, {
            platform: "mastodon",
            typed: { serviceUrl: signedIn.instance },
            error,
            status
          }),
          done
        )
      const rate = yield* limiter.take(`connect:${requesterOf(request)}`, CONNECT_TRIES_PER_WINDOW, CONNECT_WINDOW_MS)
      if (!rate.allowed)
        return yield* refuse(`Too many tries: please wait ${Math.ceil(rate.retryAfterMs / 60_000)} minutes.`, 429)
      const code = query.get("code") ?? ""
      if (code === "") {
        return yield* refuse(
          query.get("error") === "access_denied"
            ? `You did not allow svc on ${host}, so nothing was connected.`
            : `${host} sent you back without an authorization code${query.has("error") ? ` (${query.get("error_description") ?? query.get("error")})` : ""}. Try again.`,
          400
        )
      }
      const accessToken = yield* Effect.either(signIn.accessToken(signedIn.instance, code))
      if (accessToken._tag === "Left") {
        return yield* refuse(accessToken.left.message, accessToken.left.upstream ? 502 : 422)
      }
      const outcome = yield* Effect.either(
        scheduling.connectAccount(grant.value.workspaceId, "mastodon", signedIn.instance, {
          accessToken: accessToken.right
        })
      )
      if (outcome._tag === "Left") return yield* refuse(outcome.left.message, 422)
      return done(
        notePage({
          base: url.base,
          title: "Connected",
          message: `${outcome.right.handle} on mastodon is connected. Your assistant can schedule posts to it now; you can close this page.`,
          back: `${url.base}/connect/${signedIn.connectToken}`
        })
      )
    })

    yield* router.add("GET", MASTODON_CALLBACK_PATH, callback)
    yield* router.add("GET", "/connect/*", show)
    yield* router.add("POST", "/connect/*", connect)
  })
)
