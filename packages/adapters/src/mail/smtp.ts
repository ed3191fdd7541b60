import { MailNotSent, MailTransport } from "@svc/core/mail"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { createTransport } from "nodemailer"
import addressparser from "nodemailer/lib/addressparser"

/** Where mail goes out and whom it comes from. */
export interface SmtpSettings {
  /** `smtp://user:pass@host:587` or `smtps://…:465` (nodemailer's connection URL); it holds the password. */
  readonly url: Redacted.Redacted<string>
  /** The From header: `name@example.com` or `Name <name@example.com>`. */
  readonly from: string
}

/** Why a From address cannot be used, or undefined when it is one mailbox with an address. */
export const fromAddressProblem = (from: string): string | undefined => {
  const parsed = addressparser(from, { flatten: true })
  const only = parsed[0]
  if (parsed.length !== 1 || only === undefined) return "must be one address, like Name <name@example.com>"
  return /^[^\s@]+@[^\s@]+$/.test(only.address) ? undefined : "must hold an address like name@example.com"
}

// One conversation must end well within the worker's lease: nodemailer's own waits are minutes long.
const TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000, dnsTimeout: 15_000 }

/** What nodemailer's errors carry (codes of its `errors` module, the server's reply and the command it answered). */
const SmtpError = Schema.Struct({
  message: Schema.String,
  code: Schema.optional(Schema.String),
  responseCode: Schema.optional(Schema.Number),
  command: Schema.optional(Schema.String)
})

/**
 * A 5xx reply is permanent, except to logging in (a wrong password is fixed in the configuration, and the mail should
 * then go); a 4xx reply and a connection that failed or timed out are tried again. A 5xx to `RCPT TO` refuses the
 * address itself.
 */
export const judgeSmtpError = (error: unknown): MailNotSent => {
  const read = Schema.decodeUnknownOption(SmtpError)(error)
  if (Option.isNone(read)) return new MailNotSent({ message: String(error), permanent: false, recipientRefused: false })
  const { code, command, message, responseCode } = read.value
  const permanent = responseCode !== undefined && responseCode >= 500 && responseCode < 600 && code !== "EAUTH"
  return new MailNotSent({
    message: message.slice(0, 500),
    permanent,
    recipientRefused: permanent && command === "RCPT TO",
    ...(responseCode === undefined ? {} : { code: Math.trunc(responseCode) })
  })
}

/**
 * `MailTransport` over SMTP with nodemailer: one connection per message (a worker sends a handful at a time), the
 * plain-text part, the outbox id as Message-ID, and the composed headers as they are.
 */
export const SmtpTransportLive = (settings: SmtpSettings): Layer.Layer<MailTransport> =>
  Layer.scoped(
    MailTransport,
    Effect.gen(function* () {
      const transporter = yield* Effect.acquireRelease(
        Effect.sync(() => createTransport({ url: Redacted.value(settings.url), ...TIMEOUTS })),
        (opened) => Effect.sync(() => opened.close())
      )
      return {
        send: (mail) =>
          Effect.tryPromise({
            try: () =>
              transporter.sendMail({
                from: settings.from,
                to: mail.to,
                subject: mail.subject,
                text: mail.text,
                messageId: mail.messageId,
                headers: { ...mail.headers }
              }),
            catch: judgeSmtpError
          }).pipe(Effect.asVoid)
      }
    })
  )
