/**
 * A public OAuth client of a test server, registered once per server through the real endpoints (discovery, dynamic
 * registration) with `oauth4webapi`, and a function that signs a user in, approves a scope and answers the token.
 */
import * as oauth from "oauth4webapi"
import type { TestAppShape, TestUser } from "../support/app.js"
import { Browser, signInAndDecide, TEST_PASSWORD } from "./support.js"

/** oauth4webapi's switch for the tests' plain-HTTP servers. */
export const insecure = { [oauth.allowInsecureRequests]: true } as const
/** The redirect URI the automation client registers. */
export const REDIRECT = "http://127.0.0.1:7788/callback"

const clients = new Map<string, ReturnType<typeof registerAutomationClient>>()

/** The automation client of this server, registered once (registration is rate-limited per caller). */
export const automationClient = (app: TestAppShape) => {
  const found = clients.get(app.url)
  if (found !== undefined) return found
  const made = registerAutomationClient(app)
  clients.set(app.url, made)
  return made
}

/** The discovered server, one registered public client, and a function running one authorization with them. */
const registerAutomationClient = async (app: TestAppShape) => {
  const issuer = new URL(app.url)
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure })
  )
  const client = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: "Automation tool",
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "none"
      },
      insecure
    )
  )
  /** Signs `user` in and approves `scope` (and `resource`, a path, when given); answers the token response. */
  const connect = async (user: TestUser, scope: string | undefined, resource: string | undefined) => {
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const target = new URL(String(as.authorization_endpoint))
    target.searchParams.set("client_id", client.client_id)
    target.searchParams.set("redirect_uri", REDIRECT)
    target.searchParams.set("response_type", "code")
    if (scope !== undefined) target.searchParams.set("scope", scope)
    target.searchParams.set("state", state)
    target.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier))
    target.searchParams.set("code_challenge_method", "S256")
    if (resource !== undefined) target.searchParams.set("resource", `${app.url}${resource}`)
    const callback = await signInAndDecide(new Browser(app.url), target.href, {
      email: user.account.email,
      password: TEST_PASSWORD
    })
    const params = oauth.validateAuthResponse(as, client, callback, state)
    return oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, {
        ...insecure,
        ...(resource === undefined ? {} : { additionalParameters: { resource: `${app.url}${resource}` } })
      })
    )
  }
  const refresh = async (refreshToken: string, scope?: string) =>
    oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, {
        ...insecure,
        ...(scope === undefined ? {} : { additionalParameters: { scope } })
      })
    )
  return { as, client, connect, refresh }
}
