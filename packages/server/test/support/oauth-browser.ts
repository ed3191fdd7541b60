/**
 * A person at the browser, for OAuth tests against the real server: opens an authorization URL, signs in on the
 * server's own page, and approves or denies on its consent page, submitting each form as a browser would
 * (cookies kept, hidden fields included). It knows the pages only by their forms.
 */

/** The hidden fields of the form on `html` that posts to a URL ending with `actionSuffix`. */
export const hiddenFields = (html: string, actionSuffix: string): Record<string, string> => {
  const form = [...html.matchAll(/<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/g)].find((match) =>
    match[1]?.endsWith(actionSuffix)
  )
  if (form === undefined) throw new Error(`no form posting to ${actionSuffix} on the page:\n${html}`)
  const fields: Record<string, string> = {}
  for (const [, name = "", value = ""] of (form[2] ?? "").matchAll(
    /<input type="hidden" name="([^"]+)" value="([^"]*)">/g
  )) {
    fields[name] = value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
  }
  return fields
}

/** Signs in and decides on the consent page; answers the URL the server finally redirects the browser to. */
export const signInAndDecide = async (
  authorizationUrl: URL,
  account: { readonly email: string; readonly password: string },
  decision: "approve" | "deny" = "approve"
): Promise<URL> => {
  const origin = authorizationUrl.origin
  const cookies = new Map<string, string>()
  const send = async (url: string, form?: Record<string, string>) => {
    const response = await fetch(new URL(url, origin), {
      method: form === undefined ? "GET" : "POST",
      redirect: "manual",
      headers: {
        ...(cookies.size === 0 ? {} : { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") }),
        ...(form === undefined ? {} : { "content-type": "application/x-www-form-urlencoded", origin })
      },
      ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() })
    })
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";")
      const eq = pair.indexOf("=")
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim())
    }
    return { status: response.status, location: response.headers.get("location"), text: await response.text() }
  }
  const first = await send(authorizationUrl.href)
  if (first.status !== 200) throw new Error(`authorize answered ${first.status}: ${first.text}`)
  let consent = first.text
  if (first.text.includes("/oauth/sign-in")) {
    const signedIn = await send("/oauth/sign-in", { ...hiddenFields(first.text, "/oauth/sign-in"), ...account })
    if (signedIn.status !== 303 || signedIn.location === null) {
      throw new Error(`sign-in answered ${signedIn.status}: ${signedIn.text}`)
    }
    consent = (await send(signedIn.location)).text
  }
  const decided = await send("/oauth/consent", { ...hiddenFields(consent, "/oauth/consent"), decision })
  if (decided.status !== 303 || decided.location === null) {
    throw new Error(`consent answered ${decided.status}: ${decided.text}`)
  }
  return new URL(decided.location)
}

/** Registers a public client (PKCE, no secret) through dynamic registration; answers its `client_id`. */
export const registerPublicClient = async (baseUrl: string, name: string, redirectUri: string): Promise<string> => {
  const response = await fetch(`${baseUrl}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none"
    })
  })
  if (response.status !== 201) throw new Error(`registration answered ${response.status}: ${await response.text()}`)
  return String(((await response.json()) as { readonly client_id: unknown }).client_id)
}
