// docs/client.md, "OAuth": signing a user in from a public app (browser, desktop, CLI) with PKCE.
import { createOAuthClient, createToolClient, SvcOAuthError } from "@svc/client"

const baseUrl = "http://127.0.0.1:8787"

// Registered once (POST /oauth/register with token_endpoint_auth_method "none"); a public client has no secret.
const oauth = createOAuthClient({
  issuer: baseUrl,
  clientId: "client_…",
  redirectUri: "http://127.0.0.1:8976/callback",
  scope: "read write"
})

// 1. Start: send the user to `url`; keep `state` and `codeVerifier` until they come back (e.g. sessionStorage).
const pending = new Map<string, string>()
const { url, state, codeVerifier } = await oauth.authorizationUrl()
pending.set(state, codeVerifier)
console.log(`Sign in at ${url.href}`)

// 2. Back at the redirect URI: check it and trade the code for tokens.
const finishSignIn = async (callbackUrl: string) => {
  const back = new URL(callbackUrl).searchParams.get("state") ?? ""
  try {
    return await oauth.exchangeCode(callbackUrl, { state: back, codeVerifier: pending.get(back) ?? "" })
  } catch (error) {
    // `access_denied` when the user said no, `invalid_grant` for a used or expired code, `invalid_response`
    // when the redirect back is not the one this app started.
    if (error instanceof SvcOAuthError) console.error(error.code, error.message)
    throw error
  } finally {
    pending.delete(back)
  }
}
const tokens = await finishSignIn("http://127.0.0.1:8976/callback?code=…&state=…&iss=…")

// 3. The access token is a bearer token for the tools and the store API, like an API key.
const client = createToolClient({ baseUrl, token: tokens.accessToken, transport: "rest" })
await client.svc_list_workspaces()

// 4. Before `expiresAt` (an hour), trade the refresh token for new tokens; keep the new refresh token.
if (tokens.refreshToken !== undefined && (tokens.expiresAt ?? 0) - Date.now() < 60_000) {
  const renewed = await oauth.refresh(tokens.refreshToken)
  console.log(renewed.accessToken, renewed.refreshToken)
}
