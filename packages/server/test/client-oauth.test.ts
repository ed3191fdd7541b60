/**
 * The OAuth helper of `@svc/client` against the real `svc serve`: a public client registered the way an app
 * registers (RFC 7591), a sign-in and consent on the server's own pages, the code traded for tokens, a tool
 * called with the access token, and a refresh.
 */
import { describe, expect, it } from "@effect/vitest"
import { createOAuthClient, SvcOAuthError } from "@svc/client"
import { registerPublicClient, signInAndDecide } from "./support/oauth-browser.js"
import { useServer } from "./support/server-fixture.js"

const fixture = useServer()

const REDIRECT_URI = "http://127.0.0.1:8976/callback"

/** The demo owner the server opened on its empty database (it prints the email and password once). */
const demoOwner = () => {
  const output = fixture.server.output()
  const email = /email\s+(\S+)/.exec(output)?.[1]
  const password = /password\s+(\S+)/.exec(output)?.[1]
  if (email === undefined || password === undefined) throw new Error(`no demo owner printed:\n${output}`)
  return { email, password }
}

const registerClient = () => registerPublicClient(fixture.server.baseUrl, "client-oauth test", REDIRECT_URI)

const createNote = (token: string, markdown: string) =>
  fetch(`${fixture.server.baseUrl}/v1/tools/svc_create_note`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ markdown })
  })

/** What a promise rejected with, or a failure when it resolved. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected the call to fail")
    },
    (error: unknown) => error
  )

describe("the OAuth helper against svc serve", { timeout: 120_000 }, () => {
  it("signs in with PKCE, calls a tool with the access token, and refreshes", async () => {
    const clientId = await registerClient()
    const oauth = createOAuthClient({
      issuer: fixture.server.baseUrl,
      clientId,
      redirectUri: REDIRECT_URI,
      scope: "read write"
    })

    const started = await oauth.authorizationUrl()
    expect(started.url.origin + started.url.pathname).toBe(`${fixture.server.baseUrl}/oauth/authorize`)
    expect(Object.fromEntries(started.url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      scope: "read write",
      state: started.state,
      code_challenge_method: "S256"
    })
    // Each request has its own verifier and state.
    const another = await oauth.authorizationUrl()
    expect(another.codeVerifier).not.toBe(started.codeVerifier)
    expect(another.state).not.toBe(started.state)

    const callback = await signInAndDecide(started.url, demoOwner())
    const tokens = await oauth.exchangeCode(callback, started)
    expect(tokens.accessToken).toMatch(/^svc_oat_/)
    expect(tokens.refreshToken).toMatch(/^svc_ort_/)
    expect(tokens.scope).toBe("read write")
    expect(tokens.expiresAt).toBeGreaterThan(Date.now())

    const created = await createNote(tokens.accessToken, "# Through OAuth")
    expect(created.status).toBe(200)
    expect(await created.json()).toMatchObject({ ok: true, note: { title: "Through OAuth" } })

    const refreshed = await oauth.refresh(String(tokens.refreshToken), { scope: "read" })
    expect(refreshed.accessToken).not.toBe(tokens.accessToken)
    expect(refreshed.refreshToken).not.toBe(tokens.refreshToken)
    expect(refreshed.scope).toBe("read")
    // Narrowed to read: the write tool is refused, the token itself is good.
    expect((await createNote(refreshed.accessToken, "# Read only")).status).toBe(403)
    const listed = await fetch(`${fixture.server.baseUrl}/v1/tools`, {
      headers: { authorization: `Bearer ${refreshed.accessToken}` }
    })
    expect(listed.status).toBe(200)

    // A code is good once; sent again, the server ends the whole grant (RFC 6749 §4.1.2).
    const replayed = await rejection(oauth.exchangeCode(callback, started))
    expect(replayed).toBeInstanceOf(SvcOAuthError)
    expect(replayed).toMatchObject({ code: "invalid_grant" })
    expect((await createNote(refreshed.accessToken, "# After the replay")).status).toBe(401)
  })

  it("refuses a redirect back that is not the one it started", async () => {
    const oauth = createOAuthClient({
      issuer: fixture.server.baseUrl,
      clientId: await registerClient(),
      redirectUri: REDIRECT_URI
    })
    const started = await oauth.authorizationUrl()
    const callback = await signInAndDecide(started.url, demoOwner())
    const other = await oauth.authorizationUrl()
    const wrongState = await rejection(oauth.exchangeCode(callback, { ...started, state: other.state }))
    expect(wrongState).toMatchObject({ name: "SvcOAuthError", code: "invalid_response" })
    const wrongVerifier = await rejection(
      oauth.exchangeCode(callback, { state: started.state, codeVerifier: other.codeVerifier })
    )
    expect(wrongVerifier).toMatchObject({ name: "SvcOAuthError", code: "invalid_grant" })
  })

  it("reports a denied consent as access_denied", async () => {
    const oauth = createOAuthClient({
      issuer: fixture.server.baseUrl,
      clientId: await registerClient(),
      redirectUri: REDIRECT_URI,
      scope: "read"
    })
    const started = await oauth.authorizationUrl()
    const callback = await signInAndDecide(started.url, demoOwner(), "deny")
    const denied = await rejection(oauth.exchangeCode(callback.href, started))
    expect(denied).toBeInstanceOf(SvcOAuthError)
    expect(denied).toMatchObject({ code: "access_denied" })
  })

  it("narrows the tokens to one resource, through the fetch it is given", async () => {
    const seen: Array<string> = []
    const storeApi = `${fixture.server.baseUrl}/store-app/v1`
    const oauth = createOAuthClient({
      issuer: fixture.server.baseUrl,
      clientId: await registerClient(),
      redirectUri: REDIRECT_URI,
      scope: "store",
      resource: storeApi,
      fetch: (input, init) => {
        seen.push(new URL(input instanceof Request ? input.url : input).pathname)
        return fetch(input, init)
      }
    })
    const started = await oauth.authorizationUrl()
    expect(started.url.searchParams.get("resource")).toBe(storeApi)
    const tokens = await oauth.exchangeCode(await signInAndDecide(started.url, demoOwner()), started)
    const renewed = await oauth.refresh(String(tokens.refreshToken))
    expect(renewed.scope).toBe("store")
    expect(seen).toEqual(["/.well-known/oauth-authorization-server", "/oauth/token", "/oauth/token"])
    const me = await fetch(`${storeApi}/me`, { headers: { authorization: `Bearer ${renewed.accessToken}` } })
    expect(me.status).toBe(200)
    // A token for the store API is not a token for the tools.
    expect((await createNote(renewed.accessToken, "# Elsewhere")).status).toBe(401)
  })
})
