import { Context, type Effect } from "effect"
import type { MailNotSent } from "./errors.js"

/** One email the service sends. */
export interface MailMessage {
  /** The workspace the message is sent for (its store's buyers, its owner). */
  readonly workspaceId: string
  /** What kind of message it is, e.g. `store.access`; lets operators and tests find messages. */
  readonly kind: string
  readonly to: string
  readonly subject: string
  readonly text: string
  /**
   * Mail to the workspace's email list (sequence steps): it goes out with `List-Unsubscribe` and
   * `List-Unsubscribe-Post` headers and a signed link in its text that unsubscribes `to` from that list without
   * signing in. Mail a person needs whatever their list state (access, receipts, owner notices) leaves it unset.
   */
  readonly toList?: boolean | undefined
}

/**
 * Sends email. Call it inside the change's transaction: adapters record the message in an outbox
 * that commits (or rolls back) with the change, and deliver it from there.
 */
export class Mailer extends Context.Tag("svc/mail/Mailer")<
  Mailer,
  {
    readonly send: (message: MailMessage) => Effect.Effect<void>
  }
>() {}

/** A message as it goes on the wire: the outbox row composed with its headers and, for list mail, its footer. */
export interface OutgoingMail {
  /** `<outbox id@domain>`: the same on every try, so a resend after a crash is recognisable as the same message. */
  readonly messageId: string
  readonly to: string
  readonly subject: string
  /** The plain-text part. */
  readonly text: string
  /** Extra headers (`List-Unsubscribe`, `List-Unsubscribe-Post`), by name. */
  readonly headers: Readonly<Record<string, string>>
}

/** Puts one message on the wire (SMTP in production); fails with why it did not go. */
export class MailTransport extends Context.Tag("svc/mail/MailTransport")<
  MailTransport,
  {
    readonly send: (mail: OutgoingMail) => Effect.Effect<void, MailNotSent>
  }
>() {}

/**
 * Signs short texts with a key of the server's own (derived from the server key, never the key itself), so links
 * mailed out can be checked when they come back.
 */
export class MailSigner extends Context.Tag("svc/mail/MailSigner")<
  MailSigner,
  {
    /** An opaque, URL-safe signature of the UTF-8 `text`. */
    readonly sign: (text: string) => Effect.Effect<string>
    /** Whether `signature` is `sign(text)`; constant-time. */
    readonly verify: (text: string, signature: string) => Effect.Effect<boolean>
  }
>() {}

/** Why a person leaves the mailing side of a workspace's email list. */
export type OptOutReason = "unsubscribed" | "bounced" | "complained"

/** The workspace's email list as mail delivery sees it: people who must get no more list mail. */
export class MailingList extends Context.Tag("svc/mail/MailingList")<
  MailingList,
  {
    /**
     * Moves a subscribed person to `reason`; anyone else (not on the list, or already out) is left as they are.
     * Answers whether the person was on the list, and whether this call moved them.
     */
    readonly optOut: (
      workspaceId: string,
      email: string,
      reason: OptOutReason
    ) => Effect.Effect<{ readonly onList: boolean; readonly changed: boolean }>
  }
>() {}
