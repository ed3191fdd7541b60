/**
 * The attack list, over HTTP against the real server: code replay, PKCE downgrade, redirect URI
 * tampering, audience confusion, scope escalation on refresh, refresh reuse, and consent CSRF.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import {
  authorizeUrl,
  Browser,
  formFields,
  mcpCall,
  mcpToolsList,
  pkce,
  sharedClient,
  signInAndDecide,
  TEST_PASSWORD,
  tokenRequest
} from "./support.js"

/** A signed-up user, a registered public client and a fresh code for them (not yet exchanged); `resource` is a path. */
const codeFor = (options: { scope?: string; resource?: string; redirectUri?: string } = {}) =>
  Effect.gen(function* () {
    const app = yield* TestApp
    const user = yield* app.signUp()
    return yield* Effect.promise(async () => {
      const client = await sharedClient(app.url, options.redirectUri)
      const { verifier, challenge } = pkce()
      const resource = options.resource === undefined ? {} : { resource: `${app.url}${options.resource}` }
      const scope = options.scope === undefined ? {} : { scope: options.scope }
      const callback = await signInAndDecide(
        new Browser(app.url),
        authorizeUrl(app.url, { ...client, challenge, ...scope, ...resource }),
        { email: user.account.email, password: TEST_PASSWORD }
      )
      return { app, user, client, verifier, code: callback.searchParams.get("code") ?? "", callback }
    })
  })

const exchange = (url: string, clientId: string, redirectUri: string, code: string, verifier?: string) =>
  tokenRequest(url, {
    grant_type: "authorization_code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code,
    ...(verifier === undefined ? {} : { code_verifier: verifier })
  })

/** A 400 HTML error page that shows `text` and redirects nowhere. */
/** A new browser on the sign-in page of an authorization request from the shared client, and the page's form. */
const openSignIn = async (url: string) => {
  const client = await sharedClient(url)
  const browser = new Browser(url)
  const first = await browser.get(authorizeUrl(url, { ...client, challenge: pkce().challenge }))
  return { browser, first, form: formFields(first.text, "/oauth/sign-in") }
}

const expectErrorPage = async (answer: Response | { response: Response; text: string }, text: string) => {
  const response = answer instanceof Response ? answer : answer.response
  expect(response.status).toBe(400)
  expect(response.headers.get("location")).toBeNull()
  expect(response.headers.get("content-type")).toContain("text/html")
  expect(answer instanceof Response ? await answer.text() : answer.text).toContain(text)
}

layer(TestApp.layer, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
  describe("authorization codes", () => {
    it.effect(
      "answer with code, state and iss, and are single use: a replay fails and revokes what the first use issued",
      () =>
        Effect.gen(function* () {
          const { app, client, verifier, code, callback } = yield* codeFor()
          expect(callback.searchParams.get("state")).toBe("state-1")
          expect(callback.searchParams.get("iss")).toBe(app.url)
          yield* Effect.promise(async () => {
            const first = await exchange(app.url, client.clientId, client.redirectUri, code, verifier)
            expect(first.response.status).toBe(200)
            expect(first.response.headers.get("cache-control")).toBe("no-store")
            const access = String(first.body.access_token)
            expect((await mcpToolsList(app.url, access)).status).toBe(200)

            const replay = await exchange(app.url, client.clientId, client.redirectUri, code, verifier)
            expect(replay.response.status).toBe(400)
            expect(replay.body.error).toBe("invalid_grant")
            expect((await mcpToolsList(app.url, access)).status).toBe(401)
            const refresh = await tokenRequest(app.url, {
              grant_type: "refresh_token",
              client_id: client.clientId,
              refresh_token: String(first.body.refresh_token)
            })
            expect(refresh.body.error).toBe("invalid_grant")
          })
        })
    )

    it.effect("are bound to their client", () =>
      Effect.gen(function* () {
        const { app, client, verifier, code } = yield* codeFor()
        yield* Effect.promise(async () => {
          const other = await sharedClient(app.url, client.redirectUri, "other")
          const stolen = await exchange(app.url, other.clientId, client.redirectUri, code, verifier)
          expect(stolen.body.error).toBe("invalid_grant")
        })
      })
    )
  })

  describe("PKCE downgrade", () => {
    it.effect.each([
      ["plain", { code_challenge_method: "plain" }],
      ["no method", { code_challenge_method: undefined }],
      ["no challenge", { code_challenge: undefined }]
    ] as const)("refuses an authorization request with %s, redirecting invalid_request", ([, change]) =>
      Effect.gen(function* () {
        const app = yield* TestApp
        yield* Effect.promise(async () => {
          const client = await sharedClient(app.url)
          const url = new URL(authorizeUrl(app.url, { ...client, challenge: pkce().challenge }))
          for (const [key, value] of Object.entries(change)) {
            if (value === undefined) url.searchParams.delete(key)
            else url.searchParams.set(key, value)
          }
          const response = await fetch(url, { redirect: "manual" })
          expect(response.status).toBe(302)
          const location = new URL(response.headers.get("location") ?? "")
          expect(location.origin + location.pathname).toBe(client.redirectUri)
          expect(location.searchParams.get("error")).toBe("invalid_request")
          expect(location.searchParams.get("state")).toBe("state-1")
          expect(location.searchParams.get("iss")).toBe(app.url)
        })
      })
    )

    it.effect("refuses a code exchange without the verifier, or with a wrong one, and burns the code", () =>
      Effect.gen(function* () {
        const { app, client, verifier, code } = yield* codeFor()
        yield* Effect.promise(async () => {
          expect((await exchange(app.url, client.clientId, client.redirectUri, code)).body.error).toBe("invalid_grant")
          const right = await exchange(app.url, client.clientId, client.redirectUri, code, verifier)
          expect(right.body.error).toBe("invalid_grant")
        })
      })
    )
  })

  describe("NUL characters", () => {
    it.effect("answers a NUL character in a token or revocation request with invalid_request or invalid_client", () =>
      Effect.gen(function* () {
        const { app, client, verifier, code } = yield* codeFor()
        yield* Effect.promise(async () => {
          const poisonedCode = await exchange(app.url, client.clientId, client.redirectUri, `${code}\u0000`, verifier)
          expect(poisonedCode.response.status).toBe(400)
          expect(poisonedCode.body).toEqual({
            error: "invalid_request",
            error_description: "code must not contain the NUL character (\\u0000)"
          })
          const basic = `Basic ${btoa(`${encodeURIComponent(`${client.clientId}\u0000`)}:secret`)}`
          const poisonedBasic = await tokenRequest(
            app.url,
            { grant_type: "authorization_code", redirect_uri: client.redirectUri, code, code_verifier: verifier },
            { authorization: basic }
          )
          expect(poisonedBasic.response.status).toBe(401)
          expect(poisonedBasic.body.error).toBe("invalid_client")
          const revoked = await fetch(`${app.url}/oauth/revoke`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ client_id: client.clientId, token: "x\u0000" }).toString()
          })
          expect(revoked.status).toBe(400)
          // Nothing was used up: the code still exchanges.
          expect((await exchange(app.url, client.clientId, client.redirectUri, code, verifier)).response.status).toBe(
            200
          )
        })
      })
    )
  })

  describe("redirect URI tampering", () => {
    it.effect("shows an error page, never a redirect, for an unregistered redirect URI or an unknown client", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        yield* Effect.promise(async () => {
          const client = await sharedClient(app.url, "https://app.example.com/callback")
          const { challenge } = pkce()
          for (const request of [
            { ...client, redirectUri: "https://evil.example/callback", challenge },
            { ...client, redirectUri: "https://app.example.com/callback/../evil", challenge },
            { ...client, redirectUri: "https://app.example.com/callback?x=1", challenge },
            { ...client, clientId: "client_unknown", challenge }
          ]) {
            await expectErrorPage(
              await fetch(authorizeUrl(app.url, request), { redirect: "manual" }),
              "cannot continue"
            )
          }
        })
      })
    )

    it.effect("shows an error page, not a 500, for a NUL character in any query value or name", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        yield* Effect.promise(async () => {
          const client = await sharedClient(app.url, "https://app.example.com/callback")
          const { challenge } = pkce()
          const good = authorizeUrl(app.url, { ...client, challenge })
          const withClientId = new URL(good)
          withClientId.searchParams.set("client_id", `${client.clientId}\u0000`)
          const withState = new URL(good)
          withState.searchParams.set("state", "a\u0000b")
          const withName = new URL(good)
          withName.searchParams.set("x\u0000", "1")
          for (const [url, name] of [
            [withClientId, "client_id"],
            [withState, "state"],
            [withName, "x\\u0000"]
          ] as const) {
            await expectErrorPage(
              await fetch(url, { redirect: "manual" }),
              `parameter ${name} must not contain the NUL character`
            )
          }
        })
      })
    )

    it.effect("lets a loopback redirect URI use any port (RFC 8252) but binds the code to the one used", () =>
      Effect.gen(function* () {
        const { app, client, verifier, code, callback } = yield* codeFor({
          redirectUri: "http://127.0.0.1:5555/callback"
        })
        expect(callback.port).toBe("5555")
        yield* Effect.promise(async () => {
          const tampered = await exchange(app.url, client.clientId, "http://127.0.0.1:6666/callback", code, verifier)
          expect(tampered.body.error).toBe("invalid_grant")
        })
        const other = yield* codeFor({ redirectUri: "http://127.0.0.1:5555/callback" })
        yield* Effect.promise(async () => {
          const url = new URL(authorizeUrl(other.app.url, { ...other.client, challenge: pkce().challenge }))
          url.searchParams.set("redirect_uri", "http://127.0.0.1:41234/callback")
          expect((await fetch(url, { redirect: "manual" })).status).toBe(200)
        })
      })
    )
  })

  describe("audience confusion", () => {
    it.effect("refuses a resource that is not this server's with invalid_target", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        yield* Effect.promise(async () => {
          const client = await sharedClient(app.url)
          const url = authorizeUrl(app.url, {
            ...client,
            challenge: pkce().challenge,
            resource: "https://evil.example/mcp"
          })
          const response = await fetch(url, { redirect: "manual" })
          expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("invalid_target")
        })
      })
    )

    it.effect("refuses a store-API token at /mcp and on REST", () =>
      Effect.gen(function* () {
        const { app, client, verifier, code } = yield* codeFor({ resource: "/store-app/v1", scope: "store" })
        yield* Effect.promise(async () => {
          const tokens = await exchange(app.url, client.clientId, client.redirectUri, code, verifier)
          expect(tokens.response.status).toBe(200)
          expect(tokens.body.scope).toBe("store")
          const access = String(tokens.body.access_token)
          const mcp = await mcpToolsList(app.url, access)
          expect(mcp.status).toBe(401)
          expect(mcp.headers.get("www-authenticate")).toContain('error="invalid_token"')
          const rest = await fetch(`${app.url}/v1/tools`, { headers: { authorization: `Bearer ${access}` } })
          expect(rest.status).toBe(401)
        })
      })
    )

    it.effect("the store API takes the store token and refuses a token named for the tool server", () =>
      Effect.gen(function* () {
        const store = yield* codeFor({ resource: "/store-app/v1", scope: "store" })
        const tools = yield* codeFor({ resource: "/mcp" })
        yield* Effect.promise(async () => {
          const storeTokens = await exchange(
            store.app.url,
            store.client.clientId,
            store.client.redirectUri,
            store.code,
            store.verifier
          )
          const toolsTokens = await exchange(
            tools.app.url,
            tools.client.clientId,
            tools.client.redirectUri,
            tools.code,
            tools.verifier
          )
          const me = (token: unknown) =>
            fetch(`${store.app.url}/store-app/v1/me`, { headers: { authorization: `Bearer ${String(token)}` } })
          expect((await me(storeTokens.body.access_token)).status).toBe(200)
          expect((await me(toolsTokens.body.access_token)).status).toBe(401)
        })
      })
    )

    it.effect("ignores a token in the query string", () =>
      Effect.gen(function* () {
        const { app, client, verifier, code } = yield* codeFor()
        yield* Effect.promise(async () => {
          const tokens = await exchange(app.url, client.clientId, client.redirectUri, code, verifier)
          const response = await fetch(`${app.url}/v1/tools?access_token=${String(tokens.body.access_token)}`)
          expect(response.status).toBe(401)
        })
      })
    )
  })

  describe("scopes", () => {
    it.effect(
      "a read token lists only read tools and gets 403 insufficient_scope for a write tool on /mcp and REST",
      () =>
        Effect.gen(function* () {
          const { app, client, verifier, code } = yield* codeFor({ scope: "read" })
          yield* Effect.promise(async () => {
            const tokens = await exchange(app.url, client.clientId, client.redirectUri, code, verifier)
            expect(tokens.body.scope).toBe("read")
            const access = String(tokens.body.access_token)
            const listed = (await (await mcpToolsList(app.url, access)).json()) as {
              result: { tools: Array<{ name: string; annotations: { readOnlyHint: boolean } }> }
            }
            expect(listed.result.tools.length).toBeGreaterThan(0)
            expect(listed.result.tools.every((tool) => tool.annotations.readOnlyHint)).toBe(true)

            const mcp = await mcpCall(app.url, access, "svc_create_note", { markdown: "# Nope" })
            expect(mcp.status).toBe(403)
            const challenge = mcp.headers.get("www-authenticate") ?? ""
            expect(challenge).toMatch(/^Bearer /)
            expect(challenge).toContain('error="insufficient_scope"')
            expect(challenge).toContain('scope="read write"')

            const rest = await fetch(`${app.url}/v1/tools/svc_create_note`, {
              method: "POST",
              headers: { authorization: `Bearer ${access}`, "content-type": "application/json" },
              body: JSON.stringify({ markdown: "# Nope" })
            })
            expect(rest.status).toBe(403)
            expect(rest.headers.get("www-authenticate")).toContain('error="insufficient_scope"')
            expect(rest.headers.get("www-authenticate")).toContain('scope="read write"')

            const read = await mcpCall(app.url, access, "svc_list_workspaces", {})
            expect(read.status).toBe(200)
          })
        })
    )

    it.effect("a write token calls write tools, on any workspace of the account", () =>
      Effect.gen(function* () {
        const { app, client, verifier, code } = yield* codeFor({ scope: "read write" })
        yield* Effect.promise(async () => {
          const tokens = await exchange(app.url, client.clientId, client.redirectUri, code, verifier)
          const created = await mcpCall(app.url, String(tokens.body.access_token), "svc_create_note", {
            markdown: "# Yes"
          })
          const body = (await created.json()) as { result: { structuredContent: { ok: boolean } } }
          expect(body.result.structuredContent.ok).toBe(true)
        })
      })
    )

    it.effect("refresh can narrow the scopes but never widen them", () =>
      Effect.gen(function* () {
        const { app, client, verifier, code } = yield* codeFor({ scope: "read write" })
        yield* Effect.promise(async () => {
          const tokens = await exchange(app.url, client.clientId, client.redirectUri, code, verifier)
          const narrowed = await tokenRequest(app.url, {
            grant_type: "refresh_token",
            client_id: client.clientId,
            refresh_token: String(tokens.body.refresh_token),
            scope: "read"
          })
          expect(narrowed.response.status).toBe(200)
          expect(narrowed.body.scope).toBe("read")
          const escalated = await tokenRequest(app.url, {
            grant_type: "refresh_token",
            client_id: client.clientId,
            refresh_token: String(narrowed.body.refresh_token),
            scope: "read write"
          })
          expect(escalated.response.status).toBe(400)
          expect(escalated.body.error).toBe("invalid_scope")
          const store = await tokenRequest(app.url, {
            grant_type: "refresh_token",
            client_id: client.clientId,
            refresh_token: String(narrowed.body.refresh_token),
            scope: "store"
          })
          expect(store.body.error).toBe("invalid_scope")
        })
      })
    )

    it.effect("a read grant cannot be refreshed into write", () =>
      Effect.gen(function* () {
        const { app, client, verifier, code } = yield* codeFor({ scope: "read" })
        yield* Effect.promise(async () => {
          const tokens = await exchange(app.url, client.clientId, client.redirectUri, code, verifier)
          const escalated = await tokenRequest(app.url, {
            grant_type: "refresh_token",
            client_id: client.clientId,
            refresh_token: String(tokens.body.refresh_token),
            scope: "write"
          })
          expect(escalated.body.error).toBe("invalid_scope")
        })
      })
    )
  })

  describe("refresh rotation", () => {
    it.effect("rotates on every use and tolerates a parallel refresh inside the grace window", () =>
      Effect.gen(function* () {
        const { app, client, verifier, code } = yield* codeFor()
        yield* Effect.promise(async () => {
          const tokens = await exchange(app.url, client.clientId, client.redirectUri, code, verifier)
          const refresh = {
            grant_type: "refresh_token",
            client_id: client.clientId,
            refresh_token: String(tokens.body.refresh_token)
          }
          const [a, b] = await Promise.all([tokenRequest(app.url, refresh), tokenRequest(app.url, refresh)])
          expect(a.response.status).toBe(200)
          expect(b.response.status).toBe(200)
          expect(a.body.refresh_token).not.toBe(tokens.body.refresh_token)
          expect(a.body.refresh_token).not.toBe(b.body.refresh_token)
          expect((await mcpToolsList(app.url, String(a.body.access_token))).status).toBe(200)
        })
      })
    )
  })

  describe("consent CSRF", () => {
    /** Signs in and answers the browser on the consent page with its form fields. */
    const onConsentPage = Effect.gen(function* () {
      const app = yield* TestApp
      const user = yield* app.signUp()
      return yield* Effect.promise(async () => {
        const { browser, first } = await openSignIn(app.url)
        const sessionBefore = [...browser.cookies.values()].join()
        const signIn = await browser.post(`${app.url}/oauth/sign-in`, {
          ...formFields(first.text, "/oauth/sign-in"),
          email: user.account.email,
          password: TEST_PASSWORD
        })
        const page = await browser.get(signIn.response.headers.get("location") ?? "")
        return { app, browser, sessionBefore, fields: formFields(page.text, "/oauth/consent"), page }
      })
    })

    it.effect("sets an HttpOnly, SameSite=Lax session cookie whose id changes at sign-in, and forbids framing", () =>
      Effect.gen(function* () {
        const { browser, sessionBefore, page } = yield* onConsentPage
        expect([...browser.cookies.values()].join()).not.toBe(sessionBefore)
        expect(page.response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
        expect(page.response.headers.get("x-frame-options")).toBe("DENY")
        const app = yield* TestApp
        yield* Effect.promise(async () => {
          const client = await sharedClient(app.url)
          const response = await fetch(authorizeUrl(app.url, { ...client, challenge: pkce().challenge }))
          const cookie = response.headers.get("set-cookie") ?? ""
          expect(cookie).toContain("HttpOnly")
          expect(cookie).toContain("SameSite=Lax")
          expect(cookie).not.toContain("Secure") // served over plain http here; https adds Secure
        })
      })
    )

    it.effect("refuses a consent posted from another origin", () =>
      Effect.gen(function* () {
        const { app, browser, fields } = yield* onConsentPage
        yield* Effect.promise(async () => {
          const forged = await browser.post(
            `${app.url}/oauth/consent`,
            { ...fields, decision: "approve" },
            "https://evil.example"
          )
          expect(forged.response.status).toBe(403)
          expect(forged.response.headers.get("location")).toBeNull()
        })
      })
    )

    it.effect("refuses a consent without the form token, with another's, or with a used one", () =>
      Effect.gen(function* () {
        const { app, browser, fields } = yield* onConsentPage
        const other = yield* onConsentPage
        yield* Effect.promise(async () => {
          const missing = await browser.post(`${app.url}/oauth/consent`, {
            request: fields.request ?? "",
            decision: "approve"
          })
          expect(missing.response.status).toBe(403)
          const foreign = await browser.post(`${app.url}/oauth/consent`, {
            request: fields.request ?? "",
            csrf: other.fields.csrf ?? "",
            decision: "approve"
          })
          expect(foreign.response.status).toBe(403)
          // The victim's token only works in the victim's session: an attacker's session cannot use it.
          const hijack = await other.browser.post(`${app.url}/oauth/consent`, { ...fields, decision: "approve" })
          expect(hijack.response.status).toBe(403)
          const real = await browser.post(`${app.url}/oauth/consent`, { ...fields, decision: "approve" })
          expect(real.response.status).toBe(303)
          const again = await browser.post(`${app.url}/oauth/consent`, { ...fields, decision: "approve" })
          expect(again.response.status).toBe(403)
        })
      })
    )

    it.effect("answers a NUL character in a sign-in or consent field with the error page, not a 500", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        yield* Effect.promise(async () => {
          const { browser, form } = await openSignIn(app.url)
          const signInFields = { ...form, password: TEST_PASSWORD }
          for (const poisoned of [
            { request: `${form.request}\u0000`, email: user.account.email },
            { email: `${user.account.email}\u0000` }
          ]) {
            const answer = await browser.post(`${app.url}/oauth/sign-in`, { ...signInFields, ...poisoned })
            await expectErrorPage(answer, "must not contain the NUL character")
          }
          // Refused before the form token is used: the same form still signs in.
          const signIn = await browser.post(`${app.url}/oauth/sign-in`, {
            ...signInFields,
            email: user.account.email
          })
          expect(signIn.response.status).toBe(303)
          const page = await browser.get(signIn.response.headers.get("location") ?? "")
          const fields = formFields(page.text, "/oauth/consent")
          const shown = await browser.get(`${app.url}/oauth/consent?request=${fields.request}%00`)
          await expectErrorPage(shown, "The field request must not contain the NUL character")
          const decided = await browser.post(`${app.url}/oauth/consent`, {
            ...fields,
            request: `${fields.request}\u0000`,
            decision: "approve"
          })
          await expectErrorPage(decided, "The field request must not contain the NUL character")
          expect(
            (await browser.post(`${app.url}/oauth/consent`, { ...fields, decision: "approve" })).response.status
          ).toBe(303)
        })
      })
    )

    it.effect(
      "answers a sign-in, consent or settings form that is not UTF-8 text with the error page, storing nothing",
      () =>
        Effect.gen(function* () {
          const app = yield* TestApp
          const user = yield* app.signUp()
          yield* Effect.promise(async () => {
            const { browser, form } = await openSignIn(app.url)
            const fields = new URLSearchParams({ ...form, password: TEST_PASSWORD, email: user.account.email })
            // Percent-escapes that do not decode as UTF-8, and raw bytes that are not UTF-8.
            const escaped = await browser.postRaw(`${app.url}/oauth/sign-in`, `${fields}&name=Bo%FF%FEb`)
            await expectErrorPage(escaped, "The field name is not UTF-8 text")
            const raw = new Uint8Array([...Buffer.from(`${fields}&name=Bo`), 0xff, 0xfe, ...Buffer.from("b")])
            await expectErrorPage(await browser.postRaw(`${app.url}/oauth/sign-in`, raw), "is not UTF-8 text")
            const query = await browser.get(`${app.url}/oauth/consent?request=${form.request}%C3%28`)
            await expectErrorPage(query, "The field request is not UTF-8 text")
            // Refused before the form token is used: the same form still signs in.
            const signIn = await browser.post(`${app.url}/oauth/sign-in`, Object.fromEntries(fields))
            expect(signIn.response.status).toBe(303)
            // The settings page's key form: a key name that is not UTF-8 is refused, and no key is made.
            const settings = await browser.get(`${app.url}/settings`)
            const keyForm = formFields(settings.text, "/settings/keys")
            const made = await browser.postRaw(
              `${app.url}/settings/keys`,
              `${new URLSearchParams({ ...keyForm, access: "full" })}&name=Key%FF`
            )
            await expectErrorPage(made, "The field name is not UTF-8 text")
            expect((await browser.get(`${app.url}/settings`)).text).not.toContain("Key\uFFFD")
          })
        })
    )

    it.effect("Deny sends access_denied back with state and iss", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        yield* Effect.promise(async () => {
          const client = await sharedClient(app.url)
          const callback = await signInAndDecide(
            new Browser(app.url),
            authorizeUrl(app.url, { ...client, challenge: pkce().challenge }),
            { email: user.account.email, password: TEST_PASSWORD },
            "deny"
          )
          expect(callback.searchParams.get("error")).toBe("access_denied")
          expect(callback.searchParams.get("code")).toBeNull()
          expect(callback.searchParams.get("state")).toBe("state-1")
          expect(callback.searchParams.get("iss")).toBe(app.url)
        })
      })
    )
  })
})
