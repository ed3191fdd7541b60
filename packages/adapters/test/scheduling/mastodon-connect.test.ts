/**
 * Connecting a Mastodon account by signing in on the instance (OAuth), over the real HTTP faces: the page posts the
 * instance, the server registers its app there on first use and sends the browser to the instance's authorization
 * page, and the callback's code becomes a connected account. The instance is recorded exchanges replayed on loopback
 * (test/publisher/recordings/mastodon, see the README there), so loopback is allowed for this file.
 */
import { describe, expect, layer } from "@effect/vitest"
import { readLink } from "@svc/core/mail"
import { MastodonApps, SchedulingPortsLive } from "@svc/core/scheduling"
import { DEFAULT_INSTANT_HOOK_HOSTS } from "@svc/core/webhooks"
import { Effect, Encoding, Layer, Option } from "effect"
import { OutboundSettings } from "../../src/http-sender/index.js"
import { makeMastodonPublisher } from "../../src/publisher/index.js"
import { SqlPortsLive } from "../../src/sql/layers.js"
import { TestApp, type TestAppShape } from "../support/app.js"
import { TEST_PUBLIC_BASE } from "../support/core.js"
import { engineName } from "../support/database.js"
import { loadRecording, type ReceivedRequest, startReplayServer } from "../support/replay-server.js"

const CLIENT_ID = "TWhM-tNSuncnqN7DBJmoyeLnk6K3iJJ71KKXxgL1hPM"
const CLIENT_SECRET = "ZEaFUFmF0umgBX1qKJDjaU99Q31lDkOU8NutzTOoliw"

const replay = (scenario: string) =>
  startReplayServer(
    loadRecording(new URL(`../publisher/recordings/mastodon/${scenario}.json`, import.meta.url)).exchanges
  )

const app = TestApp.layerWith(
  {},
  {
    ports: Layer.mergeAll(
      SchedulingPortsLive(TEST_PUBLIC_BASE, [makeMastodonPublisher({ allowPlainHttp: true })]).pipe(
        Layer.provide(SqlPortsLive)
      ),
      Layer.succeed(OutboundSettings, { allowLoopback: true, instantHookHosts: DEFAULT_INSTANT_HOOK_HOSTS })
    )
  }
)

const jsonOf = (request: ReceivedRequest | undefined): Record<string, unknown> =>
  JSON.parse(Buffer.from(request?.body ?? new Uint8Array()).toString("utf8"))

interface Answer {
  readonly status: number
  readonly text: string
  readonly location: string | null
  readonly cookies: ReadonlyArray<string>
}

/** A person with a connect link for Mastodon, and their browser on its pages. */
const personWithLink = (testApp: TestAppShape) =>
  Effect.gen(function* () {
    const { url, handler, signUp } = testApp
    const user = yield* signUp()
    const call = (name: string, args: Record<string, unknown>) =>
      Effect.promise(async () => {
        const response = await handler(
          new Request(`${url}/v1/tools/${name}`, {
            method: "POST",
            headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
            body: JSON.stringify(args)
          })
        )
        return (await response.json()) as Record<string, unknown>
      })
    const link = yield* call("svc_connect_social_accounts", { platform: "mastodon" })
    const path = String(link.connectUrl).slice(TEST_PUBLIC_BASE.length)
    const browse = (method: "GET" | "POST", to: string, options: { body?: string; cookie?: string } = {}) =>
      Effect.promise(async (): Promise<Answer> => {
        const headers: Record<string, string> = {}
        if (options.body !== undefined) {
          headers["content-type"] = "application/x-www-form-urlencoded"
          headers.origin = url
        }
        if (options.cookie !== undefined) headers.cookie = options.cookie
        const response = await handler(
          new Request(`${url}${to}`, { method, headers, ...(options.body === undefined ? {} : { body: options.body }) })
        )
        return {
          status: response.status,
          text: await response.text(),
          location: response.headers.get("location"),
          cookies: response.headers.getSetCookie()
        }
      })
    /** Posts the instance on the connect page: the answer, and the authorization address it sends the browser to. */
    const startSignIn = (instance: string) =>
      Effect.map(
        browse("POST", `${path}/mastodon`, { body: new URLSearchParams({ serviceUrl: instance }).toString() }),
        (answer) => ({ answer, authorize: answer.location === null ? undefined : new URL(answer.location) })
      )
    /** The instance sending the browser back, as its authorization page does. */
    const comeBack = (query: Record<string, string>, cookie: string | undefined) =>
      browse("GET", `/connect/mastodon/callback?${new URLSearchParams(query).toString()}`, {
        ...(cookie === undefined ? {} : { cookie })
      })
    return { url, call, path, browse, startSignIn, comeBack }
  })

/** The `name=value` part of a `Set-Cookie` for the sign-in cookie. */
const signInCookieOf = (cookies: ReadonlyArray<string>) =>
  cookies.find((cookie) => cookie.startsWith("svc_mastodon_sign_in="))?.split(";")[0]

layer(app, { timeout: "60 seconds" })(`connecting Mastodon by signing in (${engineName})`, (it) => {
  it.scoped("the page posts the instance, the instance sends back a code, and the account is connected", () =>
    Effect.gen(function* () {
      const testApp = yield* TestApp
      const instance = yield* replay("oauth-connect")
      const person = yield* personWithLink(testApp)

      const shown = yield* person.browse("GET", person.path)
      expect(shown.text).toContain("Sign in with Mastodon")
      expect(shown.text).toContain("or paste an access token")

      const first = yield* person.startSignIn(instance.origin)
      expect(first.answer.status).toBe(303)
      const authorize = first.authorize as URL
      expect(`${authorize.origin}${authorize.pathname}`).toBe(`${instance.origin}/oauth/authorize`)
      const redirectUri = `${person.url}/connect/mastodon/callback`
      expect(Object.fromEntries(authorize.searchParams)).toEqual({
        response_type: "code",
        client_id: CLIENT_ID,
        redirect_uri: redirectUri,
        scope: "read write",
        state: expect.any(String)
      })
      // The app was registered with the address the instance will send codes to.
      const registered = instance.received.filter((r) => r.method === "POST" && r.path === "/api/v1/apps")
      expect(registered).toHaveLength(1)
      expect(jsonOf(registered[0])).toMatchObject({
        client_name: "svc",
        redirect_uris: redirectUri,
        scopes: "read write"
      })
      // The browser keeps the sign-in's nonce, for the callback only.
      const setCookie = first.answer.cookies.find((cookie) => cookie.startsWith("svc_mastodon_sign_in=")) ?? ""
      expect(setCookie).toContain("Path=/connect/mastodon/callback")
      expect(setCookie).toContain("HttpOnly")
      expect(setCookie).toContain("SameSite=Lax")
      const cookie = signInCookieOf(first.answer.cookies)

      const back = yield* person.comeBack(
        { code: "code-first-sign-in", state: authorize.searchParams.get("state") ?? "" },
        cookie
      )
      expect(back.status).toBe(200)
      expect(back.text).toContain("@harbourlog@mastodon.example on mastodon is connected")
      const exchanged = instance.received.find((r) => r.path === "/oauth/token")
      expect(jsonOf(exchanged)).toEqual({
        grant_type: "authorization_code",
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uri: redirectUri,
        code: "code-first-sign-in",
        scope: "read write"
      })
      const schedules = yield* person.call("svc_list_schedules", {})
      expect(schedules.accounts).toMatchObject([
        { platform: "mastodon", handle: "@harbourlog@mastodon.example", status: "connected" }
      ])

      // The app is kept, its secret sealed: a second sign-in on the instance registers nothing new.
      const kept = yield* testApp.setUp(Effect.flatMap(MastodonApps, (apps) => apps.find(instance.origin, redirectUri)))
      expect(Option.map(kept, (a) => a.clientSecret)).toEqual(Option.some(CLIENT_SECRET))
      const second = yield* person.startSignIn(instance.origin)
      expect(second.authorize?.searchParams.get("client_id")).toBe(CLIENT_ID)
      const again = yield* person.comeBack(
        { code: "code-second-sign-in", state: second.authorize?.searchParams.get("state") ?? "" },
        signInCookieOf(second.answer.cookies)
      )
      expect(again.text).toContain("is connected")
      expect(instance.received.filter((r) => r.path === "/api/v1/apps")).toHaveLength(1)
      yield* instance.check({ allUsed: true })
    })
  )

  it.scoped("a forged, altered or foreign state is refused, and nothing reaches the instance", () =>
    Effect.gen(function* () {
      const testApp = yield* TestApp
      const instance = yield* replay("oauth-connect")
      const person = yield* personWithLink(testApp)
      const started = yield* person.startSignIn(instance.origin)
      const state = started.authorize?.searchParams.get("state") ?? ""
      const cookie = signInCookieOf(started.answer.cookies) ?? ""
      const before = instance.received.length
      // The state is the server's own, and carries no right of its own through the instance: not the connect link.
      const fields = Option.getOrThrow(yield* testApp.setUp(readLink("mastodon-sign-in", state, 3)))
      expect(fields[0]).toBe(instance.origin)
      expect(state).not.toContain(person.path.slice("/connect/".length))

      // Made up: the same fields for another instance, with no signature of ours.
      const forgedPayload = Encoding.encodeBase64Url(["https://evil.example", ...fields.slice(1)].join("\n"))
      const forged = yield* person.comeBack(
        { code: "code-first-sign-in", state: `${forgedPayload}.c2lnbmF0dXJl` },
        cookie
      )
      expect(forged.status).toBe(400)
      expect(forged.text).toContain("not valid")
      // Altered by one character.
      const altered = `${state.slice(0, -1)}${state.endsWith("A") ? "B" : "A"}`
      expect((yield* person.comeBack({ code: "code-first-sign-in", state: altered }, cookie)).status).toBe(400)
      // Signed by us, but opened in another browser: no cookie, or another sign-in's.
      expect((yield* person.comeBack({ code: "code-first-sign-in", state }, undefined)).status).toBe(400)
      const other = yield* person.startSignIn(instance.origin)
      const otherCookie = signInCookieOf(other.answer.cookies)
      expect(otherCookie).not.toBe(cookie)
      expect((yield* person.comeBack({ code: "code-first-sign-in", state }, otherCookie)).status).toBe(400)
      // The right nonce with a connect link that is not ours opens nothing either.
      const [name, value = ""] = cookie.split("=")
      const nonce = value.slice(0, value.indexOf("."))
      const madeUpLink = `${name}=${nonce}.${Encoding.encodeBase64Url("ws_other\nacct_other\nmastodon\n9999999999999")}.c2ln`
      expect((yield* person.comeBack({ code: "code-first-sign-in", state }, madeUpLink)).status).toBe(404)
      expect(instance.received.slice(before).filter((r) => r.path === "/oauth/token")).toEqual([])
    })
  )

  it.scoped("a person who says no on the instance is told so, and nothing is connected", () =>
    Effect.gen(function* () {
      const testApp = yield* TestApp
      const instance = yield* replay("oauth-connect")
      const person = yield* personWithLink(testApp)
      const started = yield* person.startSignIn(instance.origin)
      const denied = yield* person.comeBack(
        {
          error: "access_denied",
          error_description: "The resource owner or authorization server denied the request.",
          state: started.authorize?.searchParams.get("state") ?? ""
        },
        signInCookieOf(started.answer.cookies)
      )
      expect(denied.status).toBe(400)
      expect(denied.text).toContain(`You did not allow svc on ${new URL(instance.origin).host}`)
      expect((yield* person.call("svc_list_schedules", {})).accounts).toEqual([])
    })
  )

  it.scoped("an instance answering 5xx shows the person a clear error, and registers nothing", () =>
    Effect.gen(function* () {
      const testApp = yield* TestApp
      const instance = yield* replay("oauth-instance-down")
      const person = yield* personWithLink(testApp)
      const host = new URL(instance.origin).host
      // nginx's 502 page in front of an instance that is down.
      const proxy = yield* person.startSignIn(instance.origin)
      expect(proxy.answer.status).toBe(502)
      expect(proxy.answer.location).toBeNull()
      expect(proxy.answer.text).toContain(`${host} gave no usable answer when asked to register svc`)
      expect(proxy.answer.text).toContain("Try again in a few minutes")
      // The instance's own 503.
      const unavailable = yield* person.startSignIn(instance.origin)
      expect(unavailable.answer.status).toBe(502)
      expect(unavailable.answer.text).toContain(`${host} answered 503 when asked to register svc`)
      // What was typed stays in the form.
      expect(unavailable.answer.text).toContain(`value="${instance.origin}"`)
      const kept = yield* testApp.setUp(
        Effect.flatMap(MastodonApps, (apps) => apps.find(instance.origin, `${person.url}/connect/mastodon/callback`))
      )
      expect(Option.isNone(kept)).toBe(true)
      yield* instance.check({ allUsed: true })
    })
  )

  it.scoped("an app the instance no longer knows is dropped, and the next sign-in registers a new one", () =>
    Effect.gen(function* () {
      const testApp = yield* TestApp
      const instance = yield* replay("oauth-app-forgotten")
      const person = yield* personWithLink(testApp)
      const started = yield* person.startSignIn(instance.origin)
      expect(started.authorize?.searchParams.get("client_id")).toBe(CLIENT_ID)
      const refused = yield* person.comeBack(
        { code: "code-after-app-deleted", state: started.authorize?.searchParams.get("state") ?? "" },
        signInCookieOf(started.answer.cookies)
      )
      expect(refused.status).toBe(502)
      expect(refused.text).toContain("refused when asked for the access token (401: Client authentication failed")
      const again = yield* person.startSignIn(instance.origin)
      expect(again.authorize?.searchParams.get("client_id")).toBe("kX2n9Qb7RwLp4sTz1vYc8MdJ3fGh6aUe0OiK5yVnB2q")
      yield* instance.check({ allUsed: true })
    })
  )

  describe("the address rule", () => {
    it.scoped("an instance address inside a private network is refused before any request", () =>
      Effect.gen(function* () {
        const testApp = yield* TestApp
        const person = yield* personWithLink(testApp)
        const inside = yield* person.startSignIn("https://10.0.0.5")
        expect(inside.answer.status).toBe(422)
        expect(inside.answer.text).toContain("10.0.0.5 is not a public Mastodon instance")
      })
    )
  })
})
