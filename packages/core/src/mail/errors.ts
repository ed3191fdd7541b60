import { Schema } from "effect"

/**
 * A message the transport could not hand over. `permanent` when trying again cannot help (an SMTP 5xx answer);
 * otherwise (a 4xx answer, a connection that failed or timed out) it is tried again later. `recipientRefused` when
 * the receiving server refused the address itself, so it bounces.
 */
export class MailNotSent extends Schema.TaggedError<MailNotSent>()("MailNotSent", {
  message: Schema.String,
  permanent: Schema.Boolean,
  recipientRefused: Schema.Boolean,
  /** The SMTP reply code, when a server answered. */
  code: Schema.optional(Schema.Int)
}) {}
