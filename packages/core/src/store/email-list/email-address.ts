import { Effect, Schema } from "effect"
import { Email } from "../../accounts/schema.js"
import { invalid } from "../../shared/errors.js"

/** An email address as the store keeps it (trimmed, lower-case), or a refusal naming `field` with `message`. */
export const readEmailAddress = (
  field: string,
  text: string,
  message = "the email must be an address like name@example.com"
) => Schema.decodeUnknown(Email)(text).pipe(Effect.mapError(() => invalid(field, message)))
