/**
 * The official MCP SDK client's own OAuth flow against the server, with a real browser (Debian's Chromium
 * through playwright-core) signing in and approving. The client starts from nothing but the `/mcp` URL:
 * the 401 points it at the protected-resource metadata, it discovers the authorization server, registers,
 * sends the user to sign in and consent, exchanges the code, calls tools, and refreshes. Then the settings
 * pages: create an API key, revoke it, disconnect the application. Every page is screenshotted.
 */
import { randomBytes } from "node:crypto"
import { describe, expect, layer } from "@effect/vitest"
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from "@modelcontextprotocol/sdk/shared/auth.js"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { TestApp } from "../support/app.js"
import { skipWithout } from "../support/external-tool.js"
import { chromiumOnMachine, launchChromium, screenshot } from "./browser-support.js"
import { mcpToolsList, TEST_PASSWORD } from "./support.js"

const REDIRECT = "http://127.0.0.1:33418/oauth/callback"

/** An in-memory `OAuthClientProvider`, as a desktop MCP client keeps one per server. */
class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ""
  authorizationUrl: URL | undefined
  readonly expectedState = randomBytes(12).toString("hex")

  get redirectUrl() {
    return REDIRECT
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "MCP SDK test client",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none"
    }
  }
  state() {
    return this.expectedState
  }
  clientInformation() {
    return this.client
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

/** Signs in and approves in the browser; answers the URL the browser was sent back to. */
const signInAndApprove = async (page: Page, authorizationUrl: URL, email: string) => {
  await page.route(`${REDIRECT}**`, (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "ok" }))
  await page.goto(authorizationUrl.href)
  await screenshot(page, "1-sign-in")
  await page.getByLabel("Email").fill(email)
  await page.getByLabel("Password").fill("not the password")
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.getByRole("alert").waitFor()
  await screenshot(page, "2-sign-in-error")
  await page.getByLabel("Password").fill(TEST_PASSWORD)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.getByRole("button", { name: "Approve" }).waitFor()
  await screenshot(page, "3-consent")
  const callback = page.waitForRequest((request) => request.url().startsWith(REDIRECT))
  await page.getByRole("button", { name: "Approve" }).click()
  const url = new URL((await callback).url())
  // The callback page must finish loading too, or on a busy machine the next goto on this page is interrupted by it.
  await page.waitForURL((current) => current.href.startsWith(REDIRECT))
  return url
}

const withoutChromium = skipWithout("the MCP SDK client's browser OAuth test", chromiumOnMachine)

describe.skipIf(withoutChromium)("the MCP SDK client's OAuth flow with a real browser", () => {
  layer(TestApp.layer, { excludeTestServices: true, timeout: "180 seconds" })((it) => {
    it.scoped("connects with only the URL, calls tools, refreshes; the settings pages manage keys and apps", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        const browser = yield* launchChromium
        const context = yield* Effect.acquireRelease(
          Effect.promise(() => browser.newContext({ viewport: { width: 1000, height: 800 } })),
          (c) => Effect.promise(() => c.close())
        )
        const page = yield* Effect.promise(() => context.newPage())
        const serverUrl = new URL(`${app.url}/mcp`)
        const provider = new MemoryProvider()

        yield* Effect.promise(async () => {
          // 1. No token: the transport meets the 401, discovers, registers and asks for a redirect.
          const first = new StreamableHTTPClientTransport(serverUrl, { authProvider: provider })
          const refused = await new Client({ name: "sdk", version: "1.0.0" }).connect(first).then(
            () => "connected",
            (error: unknown) => (error instanceof Error ? error.constructor.name : String(error))
          )
          expect(refused).toBe("UnauthorizedError")
          expect(provider.client?.client_id).toMatch(/^client_/)
          const authorizationUrl = provider.authorizationUrl
          if (authorizationUrl === undefined) throw new Error("the SDK did not ask for a redirect")
          expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${app.url}/oauth/authorize`)
          expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256")
          expect(authorizationUrl.searchParams.get("resource")).toBe(`${app.url}/mcp`)

          // 2. The user signs in and approves in the browser.
          const callback = await signInAndApprove(page, authorizationUrl, user.account.email)
          expect(callback.searchParams.get("state")).toBe(provider.expectedState)
          expect(callback.searchParams.get("iss")).toBe(app.url)
          const code = callback.searchParams.get("code")
          if (code === null) throw new Error(`no code in ${callback.href}`)

          // 3. The SDK's auth() exchanges the code; the client then works.
          expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe("AUTHORIZED")
          expect(provider.saved?.access_token).toMatch(/^svc_oat_/)
          const client = new Client({ name: "sdk", version: "1.0.0" })
          await client.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: provider }))
          const { tools } = await client.listTools()
          expect(tools.map((tool) => tool.name)).toContain("svc_create_note")
          const created = await client.callTool({ name: "svc_create_note", arguments: { markdown: "# Via OAuth" } })
          expect((created.structuredContent as { ok: boolean }).ok).toBe(true)
          await client.close()

          // 4. auth() again refreshes with the rotated refresh token.
          const before = provider.saved
          expect(await auth(provider, { serverUrl })).toBe("AUTHORIZED")
          expect(provider.saved?.refresh_token).not.toBe(before?.refresh_token)
          expect((await mcpToolsList(app.url, String(provider.saved?.access_token))).status).toBe(200)
        })

        // 5. The settings pages, in the session the sign-in opened.
        yield* Effect.promise(async () => {
          await page.goto(`${app.url}/settings`)
          await page.getByRole("heading", { name: "Connected applications" }).waitFor()
          await screenshot(page, "4-settings")
          await page.getByLabel("Name", { exact: true }).fill("Automation")
          await page.getByLabel("Custom: choose per part below").check()
          await page.getByRole("group", { name: "Access" }).getByLabel("Boards & documents").selectOption("edit")
          await page.getByRole("button", { name: "Create key" }).click()
          const shown = page.getByLabel("The new API key")
          await shown.waitFor()
          await screenshot(page, "5-settings-new-key")
          const key = (await shown.textContent()) ?? ""
          expect(key).toMatch(/^svc_pat_/)
          expect((await mcpToolsList(app.url, key)).status).toBe(200)

          await page.getByRole("button", { name: "Revoke Automation" }).click()
          await page.getByRole("status").waitFor()
          expect((await mcpToolsList(app.url, key)).status).toBe(401)

          await page.getByRole("button", { name: "Disconnect MCP SDK test client" }).click()
          await page.getByText("The application was disconnected").waitFor()
          await screenshot(page, "6-settings-after-revoking")
          expect((await mcpToolsList(app.url, String(provider.saved?.access_token))).status).toBe(401)

          await page.goto(`${app.url}/oauth/authorize?client_id=nobody&redirect_uri=https://evil.example/`)
          await screenshot(page, "7-error")
          expect(await page.getByRole("heading").first().textContent()).toBe("This connection cannot continue")

          await page.goto(`${app.url}/settings`)
          await page.getByRole("button", { name: "Sign out" }).click()
          await page.getByRole("heading", { name: "Sign in" }).waitFor()
          await screenshot(page, "8-signed-out")
        })
      })
    )
  })
})
