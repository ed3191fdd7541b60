/**
 * The authorization server in the real `svc serve` process: registered clients and issued grants live in
 * the database, so a restart keeps them; `AUTH_URL` moves the issuer the discovery documents name.
 */
import { createHash, randomBytes } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { engineName } from "./support/environment.js"
import { registerPublicClient } from "./support/oauth-browser.js"
import { useServer } from "./support/server-fixture.js"
import { startServer } from "./support/server-process.js"

const fixture = useServer()

const REDIRECT = "http://127.0.0.1:4567/callback"

const hiddenFields = (html: string, action: string): Record<string, string> => {
  const form = [...html.matchAll(/<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/g)].find((m) =>
    m[1]?.endsWith(action)
  )
  return Object.fromEntries(
    [...(form?.[2] ?? "").matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]])
  )
}

/** Signs in as the bootstrap owner and approves; answers the code and the PKCE verifier. */
const approve = async (baseUrl: string, clientId: string, email: string, password: string) => {
  const verifier = randomBytes(32).toString("base64url")
  const challenge = createHash("sha256").update(verifier).digest("base64url")
  const url = new URL(`${baseUrl}/oauth/authorize`)
  for (const [key, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "xyz"
  })) {
    url.searchParams.set(key, value)
  }
  const page = await fetch(url)
  const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
  const post = (path: string, fields: Record<string, string>, withCookie: string) =>
    fetch(`${baseUrl}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, cookie: withCookie },
      body: new URLSearchParams(fields).toString()
    })
  const signedIn = await post(
    "/oauth/sign-in",
    { ...hiddenFields(await page.text(), "/oauth/sign-in"), email, password },
    cookie
  )
  const session = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
  const consent = await fetch(signedIn.headers.get("location") ?? "", { headers: { cookie: session } })
  const decided = await post(
    "/oauth/consent",
    { ...hiddenFields(await consent.text(), "/oauth/consent"), decision: "approve" },
    session
  )
  const code = new URL(decided.headers.get("location") ?? "").searchParams.get("code") ?? ""
  return { code, verifier }
}

const token = async (baseUrl: string, fields: Record<string, string>) => {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString()
  })
  return { status: response.status, body: (await response.json()) as Record<string, string> }
}

describe(`the authorization server in svc serve on ${engineName}`, { timeout: 180_000 }, () => {
  it("keeps registered clients and grants across a restart, and names AUTH_URL as the issuer", async () => {
    const output = fixture.server.output()
    const email = /owner@demo\.svc\.local/.exec(output)?.[0] ?? ""
    const password = /password\s+(\S+)/.exec(output)?.[1] ?? ""
    expect(password).not.toBe("")
    let baseUrl = fixture.server.baseUrl

    const clientId = await registerPublicClient(baseUrl, "Restart test", REDIRECT)
    const { code, verifier } = await approve(baseUrl, clientId, email, password)
    const issued = await token(baseUrl, {
      grant_type: "authorization_code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      code,
      code_verifier: verifier
    })
    expect(issued.status).toBe(200)

    expect(await fixture.server.stop()).toBe(0)
    fixture.server = await startServer({ ...fixture.env, AUTH_URL: "https://auth.svc.example" })
    baseUrl = fixture.server.baseUrl

    const again = await fetch(
      `${baseUrl}/oauth/authorize?response_type=code&client_id=${clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&code_challenge=${"a".repeat(43)}&code_challenge_method=S256`
    )
    expect(again.status).toBe(200)
    expect(await again.text()).toContain("Sign in to connect Restart test")
    const refreshed = await token(baseUrl, {
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: issued.body.refresh_token ?? ""
    })
    expect(refreshed.status).toBe(200)
    const tools = await fetch(`${baseUrl}/v1/tools`, {
      headers: { authorization: `Bearer ${refreshed.body.access_token}` }
    })
    expect(tools.status).toBe(200)

    const metadata = (await (await fetch(`${baseUrl}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      string
    >
    expect(metadata.issuer).toBe("https://auth.svc.example")
    expect(metadata.token_endpoint).toBe("https://auth.svc.example/oauth/token")
    const resource = (await (await fetch(`${baseUrl}/.well-known/oauth-protected-resource`)).json()) as {
      authorization_servers: ReadonlyArray<string>
    }
    expect(resource.authorization_servers).toEqual(["https://auth.svc.example"])
  })
})
