/** Outgoing mail: the `Mailer` port, the outbox and its delivery worker, message templates and unsubscribe links. */
export { composeMail, messageIdDomain } from "./compose.js"
export { MailNotSent } from "./errors.js"
export {
  type ClaimedMail,
  type MailClaim,
  MailOutbox,
  type MailStep,
  type OutboxMessage,
  type OutboxStatus
} from "./outbox.js"
export {
  DEFAULT_MAIL_WORKER,
  MAIL_MAX_AGE_MS,
  MAIL_MAX_ATTEMPTS,
  MAIL_PURGE_BATCH,
  MAIL_RETENTION_MS,
  MAIL_RETRY_DELAYS_MS,
  type MailWorkerOptions
} from "./policy.js"
export {
  Mailer,
  type MailMessage,
  MailingList,
  MailSigner,
  MailTransport,
  type OptOutReason,
  type OutgoingMail
} from "./ports.js"
export {
  type AccessOccasion,
  accessEmail,
  applicationAcceptedEmail,
  applicationDeclinedEmail,
  confirmSubscriptionEmail,
  listMailText,
  type MailContent,
  SEQUENCE_STEP_KIND,
  sequenceStepEmail,
  webhookDisabledEmail
} from "./templates.js"
export {
  readUnsubscribeToken,
  type UnsubscribeTarget,
  unsubscribeByToken,
  unsubscribeToken,
  unsubscribeUrl
} from "./unsubscribe.js"
export { readLink, signLink } from "./signed-links.js"
export { deliverMail, MailPurgeLive, MailWorkerLive, purgeOldMail, runDueMail, runMailWorker } from "./worker.js"
