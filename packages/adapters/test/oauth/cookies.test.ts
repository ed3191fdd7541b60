/** The session cookie's attributes, over http (tests) and https (production behind TLS). */
import { describe, expect, it } from "@effect/vitest"
import { makePublicUrl } from "../../src/http/config.js"
import { clearedSessionCookieHeader, sessionCookieHeader } from "../../src/http/oauth/cookies.js"

describe("the session cookie", () => {
  it("is HttpOnly and SameSite=Lax, and over https also Secure with the __Host- prefix", () => {
    const plain = sessionCookieHeader("v", makePublicUrl("http://127.0.0.1:8787"), 3600)
    expect(plain).toBe("svc_session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600")
    const secure = sessionCookieHeader("v", makePublicUrl("https://svc.example.com"), 3600)
    expect(secure).toBe("__Host-svc_session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600; Secure")
    expect(clearedSessionCookieHeader(makePublicUrl("https://svc.example.com"))).toContain("Max-Age=0")
  })
})
