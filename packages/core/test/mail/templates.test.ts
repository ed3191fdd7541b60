/**
 * Every message the service sends comes from `mail/templates.ts`: a kind, a subject and a plain-text body. List mail is
 * composed with the one-click unsubscribe headers and ends with the signed link; a token verifies only unaltered.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  accessEmail,
  applicationAcceptedEmail,
  applicationDeclinedEmail,
  composeMail,
  confirmSubscriptionEmail,
  listMailText,
  MailSigner,
  messageIdDomain,
  type OutboxMessage,
  readUnsubscribeToken,
  sequenceStepEmail,
  unsubscribeToken,
  webhookDisabledEmail
} from "@svc/core/mail"
import { Effect, Layer, Option } from "effect"

// A stand-in signature (the real one is HMAC-SHA256 in the adapters): enough to see that what is checked is what was
// signed.
const TestSigner = Layer.succeed(MailSigner, {
  sign: (text) => Effect.succeed(`sig${text.length}x${[...text].reduce((sum, c) => sum + c.charCodeAt(0), 0)}`),
  verify: (text, signature) =>
    Effect.succeed(signature === `sig${text.length}x${[...text].reduce((sum, c) => sum + c.charCodeAt(0), 0)}`)
})

const message = (overrides: Partial<OutboxMessage>): OutboxMessage => ({
  id: "mail_1",
  workspaceId: "ws_1",
  kind: "sequence.step",
  to: "ann@example.com",
  subject: "Lesson one",
  text: "Read this first.\n",
  toList: true,
  status: "pending",
  attempts: 0,
  lastError: null,
  createdAt: new Date(0),
  sentAt: null,
  ...overrides
})

describe("mail templates", () => {
  it("give every message a kind, a subject and a plain-text body", () => {
    const all = [
      accessEmail({
        occasion: "bought",
        productTitle: "Course",
        included: ["A", "B"],
        links: [{ title: "L", url: "https://x.example/l" }]
      }),
      webhookDisabledEmail({ webhookId: "wh_1", url: "https://hooks.example/in", failingDays: 3 }),
      applicationAcceptedEmail({ storeName: "Ada", formTitle: "Coaching", note: "See you Monday." }),
      applicationDeclinedEmail({ storeName: "Ada", formTitle: "Coaching" }),
      confirmSubscriptionEmail({ storeName: "Ada", confirmUrl: "https://svc.example/c/abc" }),
      sequenceStepEmail({ subject: "Day 1", body: "Hello" })
    ]
    expect(all.map((m) => m.kind)).toEqual([
      "store.access",
      "webhook.disabled",
      "form.application_accepted",
      "form.application_declined",
      "list.confirm",
      "sequence.step"
    ])
    for (const m of all) {
      expect(m.subject.length).toBeGreaterThan(0)
      expect(m.text.length).toBeGreaterThan(0)
      expect(m.text).not.toMatch(/<[a-z]/i)
    }
    expect(all[0]?.text).toBe(
      "Thank you for your purchase. You now have access to Course.\nIt includes: A, B.\nL: https://x.example/l"
    )
    expect(all[1]?.text).toContain("fail for 3 days")
    expect(all[2]?.text).toContain("See you Monday.")
    expect(all[4]?.text).toContain("https://svc.example/c/abc")
  })

  it("end list mail with the unsubscribe link", () => {
    const text = listMailText("Hello\n\n", "https://svc.example/u/t")
    expect(text.startsWith("Hello\n\n-- \n")).toBe(true)
    expect(text.endsWith("Unsubscribe: https://svc.example/u/t")).toBe(true)
  })

  it("name Message-IDs after the public host", () => {
    expect(messageIdDomain("https://Svc.Example.com/base")).toBe("svc.example.com")
    expect(messageIdDomain("http://127.0.0.1:8787")).toBe("127.0.0.1")
    expect(messageIdDomain("not a url")).toBe("localhost")
  })
})

describe("composing mail", () => {
  it.effect("list mail gets RFC 8058 headers and the same link at the end of its text", () =>
    Effect.gen(function* () {
      const composed = yield* composeMail(message({}), "https://svc.example.com/")
      expect(composed.messageId).toBe("<mail_1@svc.example.com>")
      const link = /^<(.+)>$/.exec(composed.headers["List-Unsubscribe"] ?? "")?.[1] ?? ""
      expect(link.startsWith("https://svc.example.com/u/")).toBe(true)
      expect(composed.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click")
      expect(composed.text.endsWith(`Unsubscribe: ${link}`)).toBe(true)
      const token = link.slice("https://svc.example.com/u/".length)
      expect(yield* readUnsubscribeToken(token)).toEqual(Option.some({ workspaceId: "ws_1", email: "ann@example.com" }))
    }).pipe(Effect.provide(TestSigner))
  )

  it.effect("other mail goes as written, with no list headers", () =>
    Effect.gen(function* () {
      const composed = yield* composeMail(message({ toList: false, kind: "store.access" }), "https://svc.example.com")
      expect(composed.headers).toEqual({})
      expect(composed.text).toBe("Read this first.\n")
    }).pipe(Effect.provide(TestSigner))
  )

  it.effect("a token whose address, workspace or signature was changed is no token", () =>
    Effect.gen(function* () {
      const token = yield* unsubscribeToken({ workspaceId: "ws_1", email: "ann@example.com" })
      const [payload = "", signature = ""] = token.split(".")
      const other = yield* unsubscribeToken({ workspaceId: "ws_2", email: "ann@example.com" })
      for (const bad of [
        `${other.split(".")[0]}.${signature}`,
        `${payload}.${signature}x`,
        `${payload}`,
        "",
        "a".repeat(5_000)
      ]) {
        expect(yield* readUnsubscribeToken(bad)).toEqual(Option.none())
      }
    }).pipe(Effect.provide(TestSigner))
  )
})
