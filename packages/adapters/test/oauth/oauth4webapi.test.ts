/**
 * The authorization server checked by a client nobody here wrote: `oauth4webapi`, a strict, spec-following
 * OAuth 2 client. It discovers the server, registers, runs PKCE, exchanges the code, calls the tool server
 * with the token, refreshes and revokes. Only the sign-in and consent clicks are ours (a cookie-keeping fetch).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as oauth from "oauth4webapi"
import { TestApp } from "../support/app.js"
import { Browser, mcpToolsList, signInAndDecide, TEST_PASSWORD } from "./support.js"

const insecure = { [oauth.allowInsecureRequests]: true } as const

const discover = async (url: string) => {
  const issuer = new URL(url)
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure })
  )
}

layer(TestApp.layer, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
  describe("oauth4webapi (strict) against the authorization server", () => {
    it.effect("discovers RFC 8414 metadata whose issuer is the server's origin", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const as = yield* Effect.promise(() => discover(app.url))
        expect(as.issuer).toBe(app.url)
        expect(as).toMatchObject({
          authorization_endpoint: `${app.url}/oauth/authorize`,
          token_endpoint: `${app.url}/oauth/token`,
          registration_endpoint: `${app.url}/oauth/register`,
          revocation_endpoint: `${app.url}/oauth/revoke`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
          authorization_response_iss_parameter_supported: true
        })
        expect(as.scopes_supported).toEqual(expect.arrayContaining(["read", "write"]))
      })
    )

    it.effect.each([
      ["a public client", "none"],
      ["a confidential client with client_secret_basic", "client_secret_basic"],
      ["a confidential client with client_secret_post", "client_secret_post"]
    ] as const)("runs registration, PKCE, code exchange, refresh and revocation for %s", ([, method]) =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        yield* Effect.promise(async () => {
          const as = await discover(app.url)
          const redirectUri = "http://127.0.0.1:7777/callback"
          const client = await oauth.processDynamicClientRegistrationResponse(
            await oauth.dynamicClientRegistrationRequest(
              as,
              {
                client_name: `oauth4webapi ${method}`,
                redirect_uris: [redirectUri],
                grant_types: ["authorization_code", "refresh_token"],
                token_endpoint_auth_method: method
              },
              insecure
            )
          )
          expect(client.client_id).toMatch(/^client_/)
          expect(client.token_endpoint_auth_method).toBe(method)
          const auth =
            method === "none"
              ? oauth.None()
              : method === "client_secret_basic"
                ? oauth.ClientSecretBasic(String(client.client_secret))
                : oauth.ClientSecretPost(String(client.client_secret))
          if (method === "none") expect(client.client_secret).toBeUndefined()
          else expect(String(client.client_secret)).toMatch(/^svc_ocs_/)

          const verifier = oauth.generateRandomCodeVerifier()
          const state = oauth.generateRandomState()
          const authorizationUrl = new URL(String(as.authorization_endpoint))
          authorizationUrl.searchParams.set("client_id", client.client_id)
          authorizationUrl.searchParams.set("redirect_uri", redirectUri)
          authorizationUrl.searchParams.set("response_type", "code")
          authorizationUrl.searchParams.set("scope", "read write")
          authorizationUrl.searchParams.set("state", state)
          authorizationUrl.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier))
          authorizationUrl.searchParams.set("code_challenge_method", "S256")
          authorizationUrl.searchParams.set("resource", `${app.url}/mcp`)

          const callback = await signInAndDecide(new Browser(app.url), authorizationUrl.href, {
            email: user.account.email,
            password: TEST_PASSWORD
          })
          expect(callback.origin + callback.pathname).toBe(redirectUri)
          // validateAuthResponse checks state and, since the metadata promises it, the iss parameter.
          const params = oauth.validateAuthResponse(as, client, callback, state)

          const tokens = await oauth.processAuthorizationCodeResponse(
            as,
            client,
            await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, {
              ...insecure,
              additionalParameters: { resource: `${app.url}/mcp` }
            })
          )
          expect(tokens.token_type).toBe("bearer")
          expect(tokens.expires_in).toBe(3600)
          expect(tokens.scope).toBe("read write")
          expect(tokens.access_token).toMatch(/^svc_oat_/)
          expect(tokens.refresh_token).toMatch(/^svc_ort_/)
          expect((await mcpToolsList(app.url, tokens.access_token)).status).toBe(200)

          const refreshed = await oauth.processRefreshTokenResponse(
            as,
            client,
            await oauth.refreshTokenGrantRequest(as, client, auth, String(tokens.refresh_token), insecure)
          )
          expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
          expect((await mcpToolsList(app.url, refreshed.access_token)).status).toBe(200)

          await oauth.processRevocationResponse(
            await oauth.revocationRequest(as, client, auth, String(refreshed.refresh_token), insecure)
          )
          // Revoking the refresh token ends the grant: every access token issued from it stops working.
          const after = await mcpToolsList(app.url, refreshed.access_token)
          expect(after.status).toBe(401)
          expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"')
          expect((await mcpToolsList(app.url, tokens.access_token)).status).toBe(401)
          // Revocation answers 200 for a token it does not know (RFC 7009 §2.2).
          await oauth.processRevocationResponse(
            await oauth.revocationRequest(as, client, auth, "not-a-token", insecure)
          )
        })
      })
    )
  })
})
