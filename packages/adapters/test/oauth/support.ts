/**
 * Helpers for the OAuth tests: PKCE values, registration, and a minimal cookie-keeping "browser" over
 * `fetch` that reads the real sign-in and consent pages and submits their forms (hidden fields included),
 * exactly as a person clicking through them would. Nothing here knows the server's internals.
 */
import { createHash, randomBytes } from "node:crypto"

/** A PKCE verifier and its S256 challenge. */
export const pkce = () => {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

/** Registers a client and answers the RFC 7591 answer. */
export const register = async (url: string, metadata: Record<string, unknown>) => {
  const response = await fetch(`${url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(metadata)
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** A public client (no secret) that may refresh, with a loopback redirect URI. */
export const registerPublicClient = async (url: string, redirectUri = "http://127.0.0.1:8976/callback") => {
  const { status, body } = await register(url, {
    client_name: "Test Agent",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    token_endpoint_auth_method: "none"
  })
  if (status !== 201) throw new Error(`registration failed: ${JSON.stringify(body)}`)
  return { clientId: String(body.client_id), redirectUri }
}

const shared = new Map<string, Promise<{ clientId: string; redirectUri: string }>>()

/**
 * A public client registered once per server, redirect URI and `name`: registration is rate-limited
 * per caller address, and a test file makes many authorization requests.
 */
export const sharedClient = (url: string, redirectUri = "http://127.0.0.1:8976/callback", name = "default") => {
  const key = `${url} ${redirectUri} ${name}`
  const found = shared.get(key)
  if (found !== undefined) return found
  const made = registerPublicClient(url, redirectUri)
  shared.set(key, made)
  return made
}

/** The hidden and named inputs of the first form on a page whose action ends with `actionSuffix`. */
export const formFields = (html: string, actionSuffix: string): Record<string, string> => {
  const forms = [...html.matchAll(/<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/g)]
  const form = forms.find((match) => match[1]?.endsWith(actionSuffix))
  if (form === undefined) throw new Error(`no form posting to ${actionSuffix} on the page:\n${html}`)
  const fields: Record<string, string> = {}
  for (const input of (form[2] ?? "").matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[input[1] ?? ""] = (input[2] ?? "").replace(/&#(\d+);/g, (_, code: string) =>
      String.fromCharCode(Number(code))
    )
  }
  return fields
}

/** A cookie-keeping client that follows no redirects by itself (so each hop can be checked). */
export class Browser {
  readonly cookies = new Map<string, string>()
  constructor(readonly origin: string) {}

  private remember(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";")
      const eq = pair.indexOf("=")
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      if (value === "" || /max-age=0/i.test(header)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size === 0
      ? {}
      : { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ") }
  }

  async get(url: string) {
    const response = await fetch(url, { redirect: "manual", headers: this.cookieHeader() })
    this.remember(response)
    return { response, text: await response.text() }
  }

  /** Posts a form; a field given a list is sent once per value, as a browser sends ticked checkboxes. */
  async post(url: string, fields: Record<string, string | ReadonlyArray<string>>, origin: string | null = this.origin) {
    const body = new URLSearchParams()
    for (const [name, value] of Object.entries(fields)) {
      for (const one of typeof value === "string" ? [value] : value) body.append(name, one)
    }
    return this.postRaw(url, body.toString(), origin)
  }

  /** Posts a form body exactly as given (bytes a browser would never send, for the refusal tests). */
  async postRaw(url: string, body: string | Uint8Array<ArrayBuffer>, origin: string | null = this.origin) {
    const response = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(origin === null ? {} : { origin }),
        ...this.cookieHeader()
      },
      body
    })
    this.remember(response)
    return { response, text: await response.text() }
  }
}

/** Everything an authorization request names. */
export interface AuthorizeRequest {
  readonly clientId: string
  readonly redirectUri: string
  readonly challenge: string
  readonly state?: string
  readonly scope?: string
  readonly resource?: string
}

/** The authorization URL of a request. */
export const authorizeUrl = (url: string, request: AuthorizeRequest) => {
  const target = new URL(`${url}/oauth/authorize`)
  target.searchParams.set("response_type", "code")
  target.searchParams.set("client_id", request.clientId)
  target.searchParams.set("redirect_uri", request.redirectUri)
  target.searchParams.set("code_challenge", request.challenge)
  target.searchParams.set("code_challenge_method", "S256")
  target.searchParams.set("state", request.state ?? "state-1")
  if (request.scope !== undefined) target.searchParams.set("scope", request.scope)
  if (request.resource !== undefined) target.searchParams.set("resource", request.resource)
  return target.href
}

/**
 * Opens the authorization URL, signs in, approves (or denies) on the consent page, and answers the
 * URL the browser is finally sent to (the client's redirect URI with `code`, `state` and `iss`).
 */
export const signInAndDecide = async (
  browser: Browser,
  authorizationUrl: string,
  account: { readonly email: string; readonly password: string },
  decision: "approve" | "deny" = "approve"
): Promise<URL> => {
  const first = await browser.get(authorizationUrl)
  if (first.response.status !== 200) throw new Error(`authorize answered ${first.response.status}: ${first.text}`)
  let consent = first.text
  if (first.text.includes("/oauth/sign-in")) {
    const signIn = await browser.post(`${browser.origin}/oauth/sign-in`, {
      ...formFields(first.text, "/oauth/sign-in"),
      email: account.email,
      password: account.password
    })
    const next = signIn.response.headers.get("location")
    if (signIn.response.status !== 303 || next === null) {
      throw new Error(`sign-in answered ${signIn.response.status}: ${signIn.text}`)
    }
    consent = (await browser.get(next)).text
  }
  const decided = await browser.post(`${browser.origin}/oauth/consent`, {
    ...formFields(consent, "/oauth/consent"),
    decision
  })
  const location = decided.response.headers.get("location")
  if (decided.response.status !== 303 || location === null) {
    throw new Error(`consent answered ${decided.response.status}: ${decided.text}`)
  }
  return new URL(location)
}

/** Posts a form to the token endpoint. */
export const tokenRequest = async (
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {}
) => {
  const response = await fetch(`${url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString()
  })
  return { response, body: (await response.json()) as Record<string, unknown> }
}

/** Calls `tools/list` on `/mcp` with a bearer token. */
export const mcpToolsList = (url: string, token: string) =>
  fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream"
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
  })

/** Calls a tool on `/mcp` with a bearer token. */
export const mcpCall = (url: string, token: string, name: string, args: Record<string, unknown>) =>
  fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream"
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } })
  })

/** The password every test account is opened with (see `signUp` in test/support/core.ts). */
export const TEST_PASSWORD = "correct horse battery"
