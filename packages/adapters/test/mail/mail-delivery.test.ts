/**
 * Mail delivery over SMTP (issue 28 §5): the outbox drained by the mail worker through nodemailer into a loopback SMTP
 * server, read back as it arrived. List mail carries the one-click unsubscribe headers and ends with the signed link;
 * every message goes out under its outbox id; a 4xx is tried again after the backoff, a 5xx is recorded failed with
 * its reason (and a refused address is bounced on the email list); two workers on one database send each message once.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import {
  accessEmail,
  DEFAULT_MAIL_WORKER,
  MAIL_MAX_AGE_MS,
  MAIL_MAX_ATTEMPTS,
  MAIL_RETRY_DELAYS_MS,
  Mailer,
  MailOutbox,
  type MailWorkerOptions,
  readUnsubscribeToken,
  MAIL_RETENTION_MS,
  purgeOldMail,
  runDueMail,
  runMailWorker,
  MailTransport,
  sequenceStepEmail
} from "@svc/core/mail"
import { StoreEmailList, resolveStoreCaller } from "@svc/core/store"
import { Duration, Effect, Layer, Option, Redacted, TestClock } from "effect"
import { judgeSmtpError, SmtpTransportLive } from "../../src/mail/smtp.js"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"
import { LoopbackSmtp, loopbackSmtpLayer } from "../support/smtp.js"

const T0 = Date.parse("2026-03-01T09:00:00.000Z")
const PUBLIC = "https://svc.example.com"
const worker: MailWorkerOptions = { ...DEFAULT_MAIL_WORKER, publicBase: PUBLIC }

let counter = 0
/** An address no other test of the file uses. */
const fresh = (name: string) => `${name}-${++counter}@example.org`

/** A seller's workspace with `emails` subscribed on its list. */
const sellerWith = (...emails: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const user = yield* signUp()
    const caller = yield* resolveStoreCaller(user.principal, true)
    const list = yield* StoreEmailList
    for (const email of emails) yield* list.add(caller, { email })
    return { workspaceId: user.workspace.id, accountId: user.account.id, caller }
  })

const statusOf = (caller: Effect.Effect.Success<ReturnType<typeof sellerWith>>["caller"], email: string) =>
  Effect.map(
    Effect.flatMap(StoreEmailList, (list) => list.get(caller, email)),
    (found) => found.status
  )

/** The outbox row of the one message queued to `to`. */
const outboxOf = (to: string) =>
  Effect.gen(function* () {
    const received = yield* LoopbackSmtp
    const outbox = yield* MailOutbox
    const arrived = received.received.filter((mail) => mail.to.includes(to))
    const id = /^<(mail_[^@]+)@/.exec(arrived[0]?.messageId ?? "")?.[1]
    return id === undefined ? Option.none() : yield* outbox.find(id)
  })

/** Sends until nothing is due now. */
const drain = Effect.gen(function* () {
  let total = 0
  for (;;) {
    const claimed = yield* runDueMail(worker)
    total += claimed
    if (claimed === 0) return total
  }
})

/** Waits (real time, not the test clock) until `check` holds; the loops run on their own meanwhile. */
const eventually = (check: Effect.Effect<boolean, never, never>) =>
  Effect.gen(function* () {
    for (let i = 0; i < 1_000; i++) {
      if (yield* check) return
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
    }
    expect.fail("the mail workers did not finish")
  })

const TestLayer = Layer.merge(testCoreLayer(), loopbackSmtpLayer)

layer(TestLayer, { timeout: "120 seconds" })(`mail delivery over SMTP on ${engineName}`, (it) => {
  describe("what arrives", () => {
    it.effect(
      "list mail carries one-click unsubscribe headers, its outbox id as Message-ID, and ends with the link",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(T0)
          const to = fresh("reader")
          const { workspaceId } = yield* sellerWith(to)
          yield* (yield* Mailer).send({
            workspaceId,
            to,
            toList: true,
            ...sequenceStepEmail({ subject: "Welcome, part 1", body: "Hello!\nHere is the first lesson." })
          })
          expect(yield* drain).toBe(1)

          const smtp = yield* LoopbackSmtp
          const [mail, ...more] = smtp.received.filter((m) => m.to.includes(to))
          expect(more).toEqual([])
          expect(mail?.subject).toBe("Welcome, part 1")
          const link = /^<(https:\/\/svc\.example\.com\/u\/([A-Za-z0-9_.-]+))>$/.exec(
            mail?.headers.get("list-unsubscribe")?.[0] ?? ""
          )
          expect(link).not.toBeNull()
          expect(mail?.headers.get("list-unsubscribe-post")).toEqual(["List-Unsubscribe=One-Click"])
          expect(mail?.text.trimEnd().endsWith(`Unsubscribe: ${link?.[1]}`)).toBe(true)
          expect(mail?.text).toContain("Here is the first lesson.")
          const target = yield* readUnsubscribeToken(link?.[2] ?? "")
          expect(target).toEqual(Option.some({ workspaceId, email: to }))

          const row = Option.getOrThrow(yield* outboxOf(to))
          expect(mail?.messageId).toBe(`<${row.id}@svc.example.com>`)
          expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null, toList: true })
          expect(row.sentAt?.getTime()).toBe(T0)
        })
    )

    it.effect("mail a person needs (the access email) goes without list headers, in plain text", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const to = fresh("buyer")
        const { workspaceId } = yield* sellerWith()
        yield* (yield* Mailer).send({
          workspaceId,
          to,
          ...accessEmail({
            occasion: "bought",
            productTitle: "Course",
            included: [],
            links: [{ title: "Lesson 1", url: "https://example.com/1" }]
          })
        })
        expect(yield* drain).toBe(1)
        const mail = (yield* LoopbackSmtp).received.find((m) => m.to.includes(to))
        expect(mail?.headers.has("list-unsubscribe")).toBe(false)
        expect(mail?.subject).toBe("Your access to Course")
        expect(mail?.text).toContain("Lesson 1: https://example.com/1")
        expect(mail?.text).not.toContain("/u/")
      })
    )
  })

  describe("failures", () => {
    it.effect("a temporary 4xx is tried again after the backoff, and then sent once", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const smtp = yield* LoopbackSmtp
        const to = fresh("busy")
        smtp.refuse(to, { at: "rcpt", code: 451, message: "4.7.1 Try again later" })
        const { workspaceId, accountId, caller } = yield* sellerWith(to)
        yield* (yield* Mailer).send({ workspaceId, to, kind: "test.notice", subject: "Hi", text: "Hello" })
        expect(yield* drain).toBe(1)
        expect(smtp.tries.get(to)).toBe(1)
        expect(smtp.received.some((m) => m.to.includes(to))).toBe(false)

        const outbox = yield* MailOutbox
        const queued = (yield* outbox.listForOwner(accountId, { limit: 5, after: undefined })).rows
        expect(queued[0]).toMatchObject({ status: "pending", attempts: 1 })
        expect(queued[0]?.lastError).toContain("451")

        yield* TestClock.adjust((MAIL_RETRY_DELAYS_MS[0] ?? 0) - 1)
        expect(yield* drain).toBe(0)
        yield* TestClock.adjust(1)
        expect(yield* drain).toBe(1)
        expect(smtp.tries.get(to)).toBe(2)
        expect(smtp.received.filter((m) => m.to.includes(to))).toHaveLength(1)
        const row = Option.getOrThrow(yield* outboxOf(to))
        expect(row).toMatchObject({ status: "sent", attempts: 2 })
        // A temporary refusal is no bounce.
        expect(yield* statusOf(caller, to)).toBe("subscribed")
      })
    )

    it.effect("a permanent 550 for the address is recorded failed with its reason, and the contact bounced", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const smtp = yield* LoopbackSmtp
        const to = fresh("gone")
        smtp.refuse(to, { at: "rcpt", code: 550, message: "5.1.1 No such mailbox here" })
        const { workspaceId, accountId, caller } = yield* sellerWith(to)
        yield* (yield* Mailer).send({
          workspaceId,
          to,
          toList: true,
          ...sequenceStepEmail({ subject: "S", body: "B" })
        })
        expect(yield* drain).toBe(1)
        const rows = (yield* (yield* MailOutbox).listForOwner(accountId, { limit: 5, after: undefined })).rows
        expect(rows[0]).toMatchObject({ status: "failed", attempts: 1 })
        expect(rows[0]?.lastError).toContain("550 5.1.1 No such mailbox here")
        expect(yield* statusOf(caller, to)).toBe("bounced")
        // Failed for good: never tried again.
        yield* TestClock.adjust(86_400_000)
        expect(yield* drain).toBe(0)
        expect(smtp.tries.get(to)).toBe(1)
      })
    )

    it.effect("a permanent refusal of the message (not the address) fails it but leaves the contact subscribed", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const smtp = yield* LoopbackSmtp
        const to = fresh("strict")
        smtp.refuse(to, { at: "data", code: 554, message: "5.7.1 Message rejected as spam" })
        const { workspaceId, accountId, caller } = yield* sellerWith(to)
        yield* (yield* Mailer).send({ workspaceId, to, kind: "test.notice", subject: "Hi", text: "Hello" })
        expect(yield* drain).toBe(1)
        const rows = (yield* (yield* MailOutbox).listForOwner(accountId, { limit: 5, after: undefined })).rows
        expect(rows[0]).toMatchObject({ status: "failed" })
        expect(rows[0]?.lastError).toContain("554 5.7.1 Message rejected as spam")
        expect(yield* statusOf(caller, to)).toBe("subscribed")
      })
    )
  })

  describe("what counts as temporary", () => {
    it.effect("a server that cannot be reached, and a refused login, are tried again; a 5xx is not", () =>
      Effect.gen(function* () {
        const closed = yield* Effect.flatMap(MailTransport, (transport) =>
          Effect.flip(
            transport.send({
              messageId: "<mail_x@svc.example.com>",
              to: "a@example.org",
              subject: "S",
              text: "T",
              headers: {}
            })
          )
        ).pipe(Effect.provide(SmtpTransportLive({ url: Redacted.make("smtp://127.0.0.1:1"), from: "a@example.com" })))
        expect(closed).toMatchObject({ _tag: "MailNotSent", permanent: false, recipientRefused: false })
        const login = Object.assign(new Error("Invalid login: 535 5.7.8 Authentication failed"), {
          code: "EAUTH",
          responseCode: 535,
          command: "AUTH PLAIN"
        })
        expect(judgeSmtpError(login)).toMatchObject({ permanent: false, code: 535 })
        const refused = Object.assign(new Error("Can't send mail - all recipients were rejected: 550 5.1.1 gone"), {
          code: "EENVELOPE",
          responseCode: 550,
          command: "RCPT TO"
        })
        expect(judgeSmtpError(refused)).toMatchObject({ permanent: true, recipientRefused: true, code: 550 })
      })
    )
  })

  describe("giving up", () => {
    it.effect("after the last retry a temporary failure becomes failed, with the last reason", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const smtp = yield* LoopbackSmtp
        const to = fresh("flaky")
        const busy = { at: "rcpt", code: 421, message: "4.3.2 Service shutting down" } as const
        smtp.refuse(to, ...Array.from({ length: MAIL_MAX_ATTEMPTS }, () => busy))
        const { workspaceId, accountId } = yield* sellerWith()
        yield* (yield* Mailer).send({ workspaceId, to, kind: "test.notice", subject: "Hi", text: "Hello" })
        expect(yield* drain).toBe(1)
        for (const delay of MAIL_RETRY_DELAYS_MS) {
          yield* TestClock.adjust(delay)
          expect(yield* drain).toBe(1)
        }
        expect(smtp.tries.get(to)).toBe(MAIL_MAX_ATTEMPTS)
        const [row] = (yield* (yield* MailOutbox).listForOwner(accountId, { limit: 5, after: undefined })).rows
        expect(row).toMatchObject({ status: "failed", attempts: MAIL_MAX_ATTEMPTS })
        expect(row?.lastError).toMatch(/^gave up after 6 tries; the last: .*421 4\.3\.2 Service shutting down/)
      })
    )

    it.effect("a message still pending days after it was queued is given up on, not sent late", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const smtp = yield* LoopbackSmtp
        const to = fresh("late")
        const { workspaceId, accountId } = yield* sellerWith()
        yield* (yield* Mailer).send({ workspaceId, to, kind: "test.notice", subject: "Old news", text: "Hello" })
        yield* TestClock.adjust(MAIL_MAX_AGE_MS + 1)
        expect(yield* drain).toBe(1)
        expect(smtp.tries.get(to)).toBeUndefined()
        const [row] = (yield* (yield* MailOutbox).listForOwner(accountId, { limit: 5, after: undefined })).rows
        expect(row).toMatchObject({ status: "failed", attempts: 0 })
        expect(row?.lastError).toContain("too late to send")
      })
    )
  })

  describe("several workers", () => {
    it.effect("messages older than 30 days are purged, sent or not; newer ones stay", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const [sent, waiting, newer] = [fresh("old-sent"), fresh("old-waiting"), fresh("newer")]
        const { workspaceId } = yield* sellerWith()
        const mailer = yield* Mailer
        yield* mailer.send({ workspaceId, to: sent, kind: "test.notice", subject: "Hi", text: "Hello" })
        yield* drain
        yield* mailer.send({ workspaceId, to: waiting, kind: "test.notice", subject: "Hi", text: "Hello" })
        yield* TestClock.adjust(Duration.days(10))
        yield* mailer.send({ workspaceId, to: newer, kind: "test.notice", subject: "Hi", text: "Hello" })
        yield* TestClock.setTime(T0 + MAIL_RETENTION_MS + 60_000)
        expect(yield* purgeOldMail).toBeGreaterThanOrEqual(2)
        const left = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
          Effect.orDie(sql<{ recipient: string }>`SELECT recipient FROM mail_outbox
            WHERE workspace_id = ${workspaceId}`)
        )
        expect(left.map((row) => row.recipient)).toEqual([newer])
      })
    )

    it.effect("two worker loops on one database send each message exactly once", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const smtp = yield* LoopbackSmtp
        const { workspaceId, accountId } = yield* sellerWith()
        const recipients = Array.from({ length: 12 }, () => fresh("many"))
        const mailer = yield* Mailer
        for (const to of recipients) {
          yield* mailer.send({ workspaceId, to, kind: "test.notice", subject: `For ${to}`, text: "Hello" })
        }
        const outbox = yield* MailOutbox
        const allSent = Effect.map(
          outbox.listForOwner(accountId, { limit: 100, after: undefined }),
          (page) => page.rows.length === 12 && page.rows.every((row) => row.status === "sent")
        )
        yield* Effect.scoped(
          Effect.gen(function* () {
            const loop = runMailWorker({ ...worker, concurrency: 3 })
            yield* Effect.forkScoped(loop)
            yield* Effect.forkScoped(loop)
            yield* eventually(allSent)
          })
        )
        const arrived = smtp.received.filter((m) => recipients.some((to) => m.to.includes(to)))
        expect(arrived).toHaveLength(12)
        expect(new Set(arrived.map((m) => m.messageId)).size).toBe(12)
        expect(recipients.map((to) => smtp.tries.get(to))).toEqual(recipients.map(() => 1))
      })
    )
  })
})
