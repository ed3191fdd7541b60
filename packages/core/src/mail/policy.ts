/** The numbers of mail delivery, in one place (docs/email.md, "Retries"). */

/** Waits before each resend after a temporary failure: 1 m, 5 m, 15 m, 1 h, 4 h; six sends over about five hours. */
export const MAIL_RETRY_DELAYS_MS: ReadonlyArray<number> = [
  60_000,
  5 * 60_000,
  15 * 60_000,
  60 * 60_000,
  4 * 60 * 60_000
]

/** Sends a message gets: the first plus one per retry delay. */
export const MAIL_MAX_ATTEMPTS = MAIL_RETRY_DELAYS_MS.length + 1

/**
 * A message still pending this long after it was queued is given up on rather than sent: an access email or a
 * notice days late (SMTP switched on after a long time without it) is more confusing than helpful.
 */
export const MAIL_MAX_AGE_MS = 3 * 86_400_000

/** Messages are kept this long after they were queued, then deleted (sent, failed, or never sent without SMTP). */
export const MAIL_RETENTION_MS = 30 * 86_400_000

/** Messages deleted per purge statement. */
export const MAIL_PURGE_BATCH = 500

/** How the mail worker of one process runs. */
export interface MailWorkerOptions {
  /** The public base URL the unsubscribe links start with, e.g. `https://svc.example.com`. */
  readonly publicBase: string
  /** How long a claim holds a message: one SMTP conversation (connect, greet, send), with room to spare. */
  readonly leaseMs: number
  /** Messages sent at once in this process. */
  readonly concurrency: number
  /** Wait between looks at the outbox when nothing was due. */
  readonly idleMs: number
}

/** The defaults of {@link MailWorkerOptions} but the public base. */
export const DEFAULT_MAIL_WORKER: Omit<MailWorkerOptions, "publicBase"> = {
  leaseMs: 5 * 60_000,
  concurrency: 4,
  idleMs: 2_000
}
