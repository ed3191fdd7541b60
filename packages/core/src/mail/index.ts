/** Outgoing mail: the `Mailer` port. */
export { Mailer, type MailMessage } from "./ports.js"
