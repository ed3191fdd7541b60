import { Context, type Effect } from "effect"

/** One email the service sends. */
export interface MailMessage {
  /** The workspace the message is sent for (its store's buyers, its owner). */
  readonly workspaceId: string
  /** What kind of message it is, e.g. `store.access`; lets operators and tests find messages. */
  readonly kind: string
  readonly to: string
  readonly subject: string
  readonly text: string
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
