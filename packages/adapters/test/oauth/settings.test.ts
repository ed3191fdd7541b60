/**
 * The settings pages over HTTP: sign-in without an authorization request, API keys created (shown once),
 * listed and revoked, and the same CSRF rules as the consent page (same origin, single-use form token).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Part } from "@svc/core/auth"
import { StoreSetup } from "@svc/core/store"
import { Effect } from "effect"
import { TestApp } from "../support/app.js"
import { Browser, formFields, mcpToolsList, TEST_PASSWORD } from "./support.js"

/** A browser signed in to the settings of a fresh account, with the settings page it landed on. */
const signedIn = Effect.gen(function* () {
  const app = yield* TestApp
  const user = yield* app.signUp()
  return yield* Effect.promise(async () => {
    const browser = new Browser(app.url)
    const entry = await browser.get(`${app.url}/settings`)
    expect(entry.response.status).toBe(303)
    const signInPage = await browser.get(entry.response.headers.get("location") ?? "")
    const signIn = await browser.post(`${app.url}/oauth/sign-in`, {
      ...formFields(signInPage.text, "/oauth/sign-in"),
      email: user.account.email,
      password: TEST_PASSWORD
    })
    expect(signIn.response.headers.get("location")).toBe(`${app.url}/settings`)
    const page = await browser.get(`${app.url}/settings`)
    expect(page.response.status).toBe(200)
    return { app, user, browser, page: page.text }
  })
})

layer(TestApp.layer, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
  describe("settings pages", () => {
    it.effect("create a key shown once, with custom access, then revoke it", () =>
      Effect.gen(function* () {
        const { app, browser, page, user } = yield* signedIn
        expect(page).toContain(user.account.email)
        yield* Effect.promise(async () => {
          const created = await browser.post(`${app.url}/settings/keys`, {
            ...formFields(page, "/settings/keys"),
            name: "Reader",
            access: "custom",
            part_workspace: "read",
            part_boards: "read",
            expires_in_days: "30"
          })
          expect(created.response.status).toBe(201)
          expect(created.response.headers.get("cache-control")).toBe("no-store")
          const token = /svc_pat_[0-9A-Za-z]{36}/.exec(created.text)?.[0] ?? ""
          expect(token).not.toBe("")
          expect(created.text).toContain("workspace=read, boards=read")
          const listed = (await (await mcpToolsList(app.url, token)).json()) as {
            result: { tools: Array<{ name: string }> }
          }
          expect(listed.result.tools.map((t) => t.name)).not.toContain("svc_create_note")

          const again = await browser.get(`${app.url}/settings`)
          expect(again.text).not.toContain(token)
          const keyId = /name="key_id" value="([^"]+)"/.exec(again.text)?.[1] ?? ""
          const revoked = await browser.post(`${app.url}/settings/keys/revoke`, {
            ...formFields(again.text, "/settings/keys/revoke"),
            key_id: keyId
          })
          expect(revoked.response.status).toBe(303)
          expect((await mcpToolsList(app.url, token)).status).toBe(401)
        })
      })
    )

    it.effect("let the owner set the store's name, support email, card processor and email-list options", () =>
      Effect.gen(function* () {
        const { app, browser, page, user } = yield* signedIn
        expect(page).toContain("PATCH /store-app/v1/settings")
        // Buyers join the list by default: the box comes ticked.
        expect(page).toContain('<input type="checkbox" name="email_list_add_buyers" checked>')
        const saved = yield* Effect.promise(async () => {
          const refused = await browser.post(`${app.url}/settings/store`, {
            ...formFields(page, "/settings/store"),
            support_email: "not an address",
            card_processor: "connected"
          })
          expect(refused.response.status).toBe(422)
          expect(refused.text).toContain("the support email must be an address like help@example.com")
          // As a browser posts the form: every field, and of the boxes only the ticked one.
          const done = await browser.post(`${app.url}/settings/store`, {
            ...formFields(refused.text, "/settings/store"),
            name: "Page Store",
            support_email: "help@example.com",
            card_processor: "connected",
            email_double_opt_in: "on"
          })
          expect(done.response.status).toBe(303)
          const shown = await browser.get(done.response.headers.get("location") ?? "")
          expect(shown.text).toContain("The store settings were saved.")
          expect(shown.text).toContain('value="help@example.com"')
          return shown.text
        })
        expect(saved).toContain('<option value="connected" selected>')
        const settings = yield* app.setUp(Effect.flatMap(StoreSetup, (setup) => setup.get(user.workspace.id)))
        expect(settings).toMatchObject({
          supportEmail: "help@example.com",
          cardProcessor: "connected",
          emailListAddBuyers: false,
          emailDoubleOptIn: true
        })
        expect(saved).toContain('value="Page Store"')
        expect(saved).toContain('<input type="checkbox" name="email_double_opt_in" checked>')
      })
    )

    it.effect("refuse forms from another origin, without the token, or with a used token", () =>
      Effect.gen(function* () {
        const { app, browser, page } = yield* signedIn
        yield* Effect.promise(async () => {
          const fields = { ...formFields(page, "/settings/keys"), name: "Forged" }
          expect((await browser.post(`${app.url}/settings/keys`, fields, "https://evil.example")).response.status).toBe(
            403
          )
          expect((await browser.post(`${app.url}/settings/keys`, { name: "No token" })).response.status).toBe(403)
          expect((await browser.post(`${app.url}/settings/keys`, fields)).response.status).toBe(201)
          expect((await browser.post(`${app.url}/settings/keys`, fields)).response.status).toBe(403)
          const stranger = new Browser(app.url)
          expect((await stranger.post(`${app.url}/settings/keys`, fields)).response.status).toBe(303)
        })
      })
    )

    it.effect("answer a NUL character in a form field with the error page, and keep the form usable", () =>
      Effect.gen(function* () {
        const { app, browser, page } = yield* signedIn
        yield* Effect.promise(async () => {
          // Every settings form carries the same single-use token; refusing the NUL does not use it up.
          for (const [path, field] of [
            ["/settings/keys", "name"],
            ["/settings/keys/revoke", "key_id"],
            ["/settings/apps/revoke", "client_id"]
          ] as const) {
            const refused = await browser.post(`${app.url}${path}`, {
              ...formFields(page, "/settings/keys"),
              [field]: "a\u0000"
            })
            expect(refused.response.status).toBe(400)
            expect(refused.text).toContain(`The field ${field} must not contain the NUL character`)
          }
          const created = await browser.post(`${app.url}/settings/keys`, {
            ...formFields(page, "/settings/keys"),
            name: "After"
          })
          expect(created.response.status).toBe(201)
        })
      })
    )

    it.effect("create a key with default toolsets: it is served those groups unless a request names others", () =>
      Effect.gen(function* () {
        const { app, browser, page } = yield* signedIn
        expect(page).toContain('name="toolset" value="custom_ai"')
        yield* Effect.promise(async () => {
          const unknown = await browser.post(`${app.url}/settings/keys`, {
            ...formFields(page, "/settings/keys"),
            name: "Odd",
            access: "full",
            toolset: ["workspace", "nope"]
          })
          expect(unknown.response.status).toBe(422)
          expect(unknown.text).toContain("unknown toolset")
          const created = await browser.post(`${app.url}/settings/keys`, {
            ...formFields(unknown.text, "/settings/keys"),
            name: "Narrow",
            access: "full",
            toolset: ["highlights", "workspace"]
          })
          expect(created.response.status).toBe(201)
          expect(created.text).toContain("Toolsets: Workspace, Highlights &#38; captures.")
          const token = /svc_pat_[0-9A-Za-z]{36}/.exec(created.text)?.[0] ?? ""
          const { registry } = app
          const listed = (await (await mcpToolsList(app.url, token)).json()) as {
            result: { tools: Array<{ name: string }> }
          }
          expect(listed.result.tools.map((tool) => tool.name)).toEqual(
            registry.tools
              .filter((tool) => tool.entry.group === "Workspace" || tool.entry.group === "Highlights & captures")
              .map((tool) => tool.entry.name)
          )
          // A request narrows them further.
          const narrowed = await fetch(`${app.url}/v1/tools?toolsets=highlights`, {
            headers: { authorization: `Bearer ${token}` }
          })
          expect(
            ((await narrowed.json()) as { tools: Array<{ group: string }> }).tools.map((tool) => tool.group)
          ).toEqual(["Highlights & captures", "Highlights & captures"])
          // The keys table shows each key's toolsets; one made with none ticked is served every group.
          const again = await browser.get(`${app.url}/settings`)
          expect(again.text).toContain("<td>Workspace, Highlights &#38; captures</td>")
          const every = await browser.post(`${app.url}/settings/keys`, {
            ...formFields(again.text, "/settings/keys"),
            name: "Every",
            access: "full"
          })
          expect(every.text).toContain("Toolsets: All.")
        })
      })
    )

    it.effect("a custom key needs at least one part, and sign-out ends the session", () =>
      Effect.gen(function* () {
        const { app, browser, page } = yield* signedIn
        yield* Effect.promise(async () => {
          const none = await browser.post(`${app.url}/settings/keys`, {
            ...formFields(page, "/settings/keys"),
            name: "Nothing",
            access: "custom",
            ...Object.fromEntries(Part.literals.map((part) => [`part_${part}`, "off"]))
          })
          expect(none.response.status).toBe(422)
          expect(none.text).toContain("at least one part")
          const out = await browser.post(`${app.url}/settings/sign-out`, formFields(none.text, "/settings/sign-out"))
          expect(out.response.status).toBe(303)
          expect((await browser.get(`${app.url}/settings`)).response.status).toBe(303)
        })
      })
    )

    it.effect("a wrong password keeps the user on the sign-in page with a message", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        yield* Effect.promise(async () => {
          const browser = new Browser(app.url)
          const form = await browser.get(`${app.url}/oauth/sign-in`)
          const wrong = await browser.post(`${app.url}/oauth/sign-in`, {
            ...formFields(form.text, "/oauth/sign-in"),
            email: user.account.email,
            password: "wrong password"
          })
          expect(wrong.response.status).toBe(401)
          expect(wrong.text).toContain("do not match")
        })
      })
    )
  })
})
