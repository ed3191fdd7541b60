// A public OAuth client with PKCE for svc's authorization server, over `oauth4webapi` (a strict, browser-safe
// implementation): the server's metadata is discovered once, and every answer is checked the way the RFCs say.
import * as oauth from "oauth4webapi"

/** What an OAuth client of svc needs. */
export interface OAuthClientOptions {
  /** The authorization server: svc's base URL (its `auth_url` when set apart), e.g. `https://svc.example.com`. */
  readonly issuer: string
  /** The `client_id` the server gave at registration (`POST /oauth/register`, `token_endpoint_auth_method: "none"`). */
  readonly clientId: string
  /** Where the server sends the browser back; one of the client's registered `redirect_uris`. */
  readonly redirectUri: string
  /** The scopes to ask for, space-separated (`read write`, `store`, …); left out, the server's default for the resource. */
  readonly scope?: string
  /** Narrows the tokens to one face (RFC 8707), e.g. `<base>/mcp` or `<base>/store-app/v1`. */
  readonly resource?: string
  /** The `fetch` to use; the global one by default. */
  readonly fetch?: typeof fetch
  /**
   * Allows plain `http:` to the server. On by default only for a loopback issuer (`localhost`, `127.0.0.1`, `[::1]`),
   * where a local server has no TLS; anywhere else tokens must not travel in the clear.
   */
  readonly allowHttp?: boolean
}

/** A started sign-in: send the browser to `url`, and keep `state` and `codeVerifier` for the way back. */
export interface AuthorizationRequest {
  readonly url: URL
  readonly state: string
  readonly codeVerifier: string
}

/** The tokens of a grant. */
export interface OAuthTokens {
  /** The bearer token for the tools and the store API (`svc_oat_…`). */
  readonly accessToken: string
  /** Trades for new tokens with `refresh` (`svc_ort_…`); each refresh answers a new one. */
  readonly refreshToken?: string
  /** When the access token expires, in ms since 1970 (from `expires_in`). */
  readonly expiresAt?: number
  /** The scopes granted, space-separated. */
  readonly scope?: string
}

/** An OAuth step the server (or the redirect back) refused, or an answer that breaks the protocol. */
export class SvcOAuthError extends Error {
  override readonly name = "SvcOAuthError"
  constructor(
    message: string,
    /**
     * The OAuth error code (`invalid_grant`, `access_denied`, …), or `invalid_response` when an answer or the redirect
     * back fails the protocol's checks (a `state` that is not the one started, a wrong `iss`, a malformed body).
     */
    readonly code: string,
    options?: { readonly cause?: unknown }
  ) {
    super(message, options)
  }
}

/** A public PKCE client of one svc server. */
export interface OAuthClient {
  /** A fresh authorization request: its URL carries a new code verifier's S256 challenge and a new state. */
  readonly authorizationUrl: (options?: { readonly scope?: string }) => Promise<AuthorizationRequest>
  /**
   * Checks the redirect back (its `state`, and `iss` as the server promises it) and trades its code for tokens.
   * `callback` is the URL the browser came back to, or its query parameters.
   */
  readonly exchangeCode: (
    callback: URL | string | URLSearchParams,
    started: { readonly state: string; readonly codeVerifier: string }
  ) => Promise<OAuthTokens>
  /** New tokens for a refresh token; `scope` may narrow the grant (never widen it). */
  readonly refresh: (refreshToken: string, options?: { readonly scope?: string }) => Promise<OAuthTokens>
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"])

const toError = (error: unknown): unknown => {
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
    const detail = error.error_description === undefined ? "" : `: ${error.error_description}`
    return new SvcOAuthError(`${error.error}${detail}`, error.error, { cause: error })
  }
  if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) {
    return new SvcOAuthError(error.message, "invalid_response", { cause: error })
  }
  return error
}

// Every failure leaves as a `SvcOAuthError` (or the network's own error), never as one of the library's classes.
const rethrown = async <A>(run: () => Promise<A>): Promise<A> => {
  try {
    return await run()
  } catch (error) {
    throw toError(error)
  }
}

const tokensOf = (answer: oauth.TokenEndpointResponse, now: number): OAuthTokens => ({
  accessToken: answer.access_token,
  ...(answer.refresh_token === undefined ? {} : { refreshToken: answer.refresh_token }),
  ...(answer.expires_in === undefined ? {} : { expiresAt: now + answer.expires_in * 1000 }),
  ...(answer.scope === undefined ? {} : { scope: answer.scope })
})

/** A public (secretless) PKCE client of svc's authorization server, discovering its endpoints on first use. */
export const createOAuthClient = (options: OAuthClientOptions): OAuthClient => {
  const issuer = new URL(options.issuer)
  const client: oauth.Client = { client_id: options.clientId }
  const auth = oauth.None()
  const fetchWith = options.fetch
  // The library hands a body of URLSearchParams or none; `fetch` takes `null` for none.
  const viaFetch =
    fetchWith &&
    ((url: string, init: oauth.CustomFetchOptions<string, URLSearchParams | undefined>) =>
      fetchWith(url, { ...init, body: init.body ?? null }))
  const requestOptions = {
    [oauth.allowInsecureRequests]: options.allowHttp ?? LOOPBACK.has(issuer.hostname),
    ...(viaFetch === undefined ? {} : { [oauth.customFetch]: viaFetch })
  }
  const resourceParameter = options.resource === undefined ? {} : { resource: options.resource }

  // One discovery per client; a failed one is forgotten so the next call tries again.
  let discovered: Promise<oauth.AuthorizationServer> | undefined
  const server = () => {
    discovered ??= rethrown(async () =>
      oauth.processDiscoveryResponse(
        issuer,
        await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...requestOptions })
      )
    ).catch((error: unknown) => {
      discovered = undefined
      throw error
    })
    return discovered
  }

  const authorizationUrl: OAuthClient["authorizationUrl"] = (asked) =>
    rethrown(async () => {
      const as = await server()
      if (as.authorization_endpoint === undefined) {
        throw new SvcOAuthError("the server's metadata names no authorization_endpoint", "invalid_response")
      }
      const codeVerifier = oauth.generateRandomCodeVerifier()
      const state = oauth.generateRandomState()
      const url = new URL(as.authorization_endpoint)
      const scope = asked?.scope ?? options.scope
      url.searchParams.set("response_type", "code")
      url.searchParams.set("client_id", options.clientId)
      url.searchParams.set("redirect_uri", options.redirectUri)
      url.searchParams.set("state", state)
      url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(codeVerifier))
      url.searchParams.set("code_challenge_method", "S256")
      if (scope !== undefined) url.searchParams.set("scope", scope)
      if (options.resource !== undefined) url.searchParams.set("resource", options.resource)
      return { url, state, codeVerifier }
    })

  const exchangeCode: OAuthClient["exchangeCode"] = (callback, started) =>
    rethrown(async () => {
      const as = await server()
      const back = typeof callback === "string" ? new URL(callback) : callback
      const params = oauth.validateAuthResponse(as, client, back, started.state)
      const answer = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(as, client, auth, params, options.redirectUri, started.codeVerifier, {
          ...requestOptions,
          additionalParameters: resourceParameter
        })
      )
      return tokensOf(answer, Date.now())
    })

  const refresh: OAuthClient["refresh"] = (refreshToken, asked) =>
    rethrown(async () => {
      const as = await server()
      const additionalParameters = {
        ...resourceParameter,
        ...(asked?.scope === undefined ? {} : { scope: asked.scope })
      }
      const answer = await oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, {
          ...requestOptions,
          additionalParameters
        })
      )
      return tokensOf(answer, Date.now())
    })

  return { authorizationUrl, exchangeCode, refresh }
}
