import { Effect } from "effect"
import type { OutboxMessage } from "./outbox.js"
import type { OutgoingMail } from "./ports.js"
import { listMailText } from "./templates.js"
import { unsubscribeToken, unsubscribeUrl } from "./unsubscribe.js"

/** The host part of Message-IDs: the public URL's host name, as the mail's own links name it. */
export const messageIdDomain = (publicBase: string): string => {
  try {
    return new URL(publicBase).hostname || "localhost"
  } catch {
    return "localhost"
  }
}

/**
 * The message as it goes out. Its Message-ID is its outbox id, the same on every try. List mail gets the one-click
 * unsubscribe headers of RFC 8058 (`List-Unsubscribe` with the signed https link, `List-Unsubscribe-Post`) and ends
 * with the same link.
 */
export const composeMail = (message: OutboxMessage, publicBase: string) =>
  Effect.gen(function* () {
    const messageId = `<${message.id}@${messageIdDomain(publicBase)}>`
    if (!message.toList) {
      return { messageId, to: message.to, subject: message.subject, text: message.text, headers: {} } as OutgoingMail
    }
    const link = unsubscribeUrl(
      publicBase,
      yield* unsubscribeToken({ workspaceId: message.workspaceId, email: message.to })
    )
    return {
      messageId,
      to: message.to,
      subject: message.subject,
      text: listMailText(message.text, link),
      headers: { "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }
    } satisfies OutgoingMail
  })
