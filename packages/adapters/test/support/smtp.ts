/**
 * A loopback SMTP server (the `smtp-server` package) that keeps what arrives, parsed with `mailparser`, and can be told
 * to refuse a recipient: each refusal queued for an address answers one try, at `RCPT TO` or after `DATA`.
 */
import type { AddressInfo } from "node:net"
import { SmtpTransportLive } from "../../src/mail/smtp.js"
import { Context, Effect, Layer, Redacted } from "effect"
import { simpleParser } from "mailparser"
import { SMTPServer } from "smtp-server"

/** One message as the server received it. */
export interface ReceivedMail {
  readonly to: ReadonlyArray<string>
  readonly messageId: string
  readonly subject: string
  /** The plain-text part. */
  readonly text: string
  /** Every header line, unfolded, by lower-case name (a repeated header keeps each value). */
  readonly headers: ReadonlyMap<string, ReadonlyArray<string>>
}

/** An answer the server gives instead of accepting. */
export interface Refusal {
  readonly at: "rcpt" | "data"
  readonly code: number
  readonly message: string
}

/** The running loopback server. */
export interface LoopbackSmtpShape {
  readonly url: string
  /** Every message accepted so far, in order. */
  readonly received: Array<ReceivedMail>
  /** Tries seen per recipient (accepted or refused). */
  readonly tries: Map<string, number>
  /** Queues refusals for the next tries to `address`. */
  readonly refuse: (address: string, ...refusals: ReadonlyArray<Refusal>) => void
}

export class LoopbackSmtp extends Context.Tag("test/LoopbackSmtp")<LoopbackSmtp, LoopbackSmtpShape>() {}

const smtpError = (refusal: Refusal) => Object.assign(new Error(refusal.message), { responseCode: refusal.code })

const headersOf = (lines: ReadonlyArray<{ readonly key: string; readonly line: string }>) => {
  const headers = new Map<string, Array<string>>()
  for (const { key, line } of lines) {
    const value = line
      .replace(/\r?\n(?=[ \t])/g, "")
      .slice(line.indexOf(":") + 1)
      .trim()
    headers.set(key.toLowerCase(), [...(headers.get(key.toLowerCase()) ?? []), value])
  }
  return headers
}

const startServer = Effect.acquireRelease(
  Effect.async<{ server: SMTPServer; state: LoopbackSmtpShape }>((resume) => {
    const received: Array<ReceivedMail> = []
    const tries = new Map<string, number>()
    const pending = new Map<string, Array<Refusal>>()
    // The refusal for this try of a recipient, taken at RCPT TO and remembered until DATA ends.
    const atData = new Map<string, Refusal>()
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["AUTH", "STARTTLS"],
      logger: false,
      onRcptTo(address, session, callback) {
        const to = address.address.toLowerCase()
        tries.set(to, (tries.get(to) ?? 0) + 1)
        const next = pending.get(to)?.shift()
        if (next?.at === "rcpt") return callback(smtpError(next))
        if (next?.at === "data") atData.set(session.id, next)
        callback()
      },
      onData(stream, session, callback) {
        const chunks: Array<Buffer> = []
        stream.on("data", (chunk: Buffer) => chunks.push(chunk))
        stream.on("end", () => {
          const refusal = atData.get(session.id)
          atData.delete(session.id)
          if (refusal !== undefined) return callback(smtpError(refusal))
          simpleParser(Buffer.concat(chunks)).then(
            (parsed) => {
              received.push({
                to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
                messageId: parsed.messageId ?? "",
                subject: parsed.subject ?? "",
                text: parsed.text ?? "",
                headers: headersOf(parsed.headerLines)
              })
              callback()
            },
            (error: Error) => callback(error)
          )
        })
      }
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.server.address() as AddressInfo
      resume(
        Effect.succeed({
          server,
          state: {
            url: `smtp://127.0.0.1:${port}`,
            received,
            tries,
            refuse: (address, ...refusals) =>
              pending.set(address.toLowerCase(), [...(pending.get(address.toLowerCase()) ?? []), ...refusals])
          }
        })
      )
    })
  }),
  ({ server }) => Effect.async<void>((resume) => server.close(() => resume(Effect.void)))
)

/** The loopback server and the real SMTP transport (nodemailer) pointed at it. */
export const loopbackSmtpLayer = Layer.unwrapScoped(
  Effect.map(startServer, ({ state }) =>
    Layer.merge(
      Layer.succeed(LoopbackSmtp, state),
      SmtpTransportLive({ url: Redacted.make(state.url), from: "Ada's Shop <shop@example.com>" })
    )
  )
)
