import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import { NUL_MESSAGE, nulParameter } from "@svc/core/shared"
import { Data, Effect } from "effect"
import { NOT_UTF8_BODY, readBodyText } from "../body.js"

const MAX_FORM_BYTES = 16 * 1024

/**
 * A posted form or a query with a field no page can take: one holding the NUL character, or one whose bytes (raw or
 * percent-escaped) are not UTF-8 text. Each page answers it with its error page.
 */
export class FieldHoldsNul extends Data.TaggedError("FieldHoldsNul")<{
  readonly field: string
  readonly notUtf8?: boolean
}> {
  override get message() {
    return this.notUtf8 ? `The field ${this.field} is not UTF-8 text.` : `The field ${this.field} ${NUL_MESSAGE}.`
  }
}

/**
 * The first field of a form or query text whose percent-escapes do not decode as UTF-8. `URLSearchParams` would
 * turn them into U+FFFD without a word, and the replacement would be stored in place of what was sent.
 */
const badlyEncodedField = (text: string): string | undefined => {
  for (const pair of text.split("&")) {
    try {
      decodeURIComponent(pair.replaceAll("+", " "))
    } catch {
      const name = pair.split("=", 1)[0] ?? ""
      return /^[\w.-]{1,64}$/.test(name) ? name : "(unnamed)"
    }
  }
  return undefined
}

/** The parameters, or `FieldHoldsNul`: a NUL would reach a lookup or a stored row and fail there as a 500. */
export const refuseNul = (params: URLSearchParams): Effect.Effect<URLSearchParams, FieldHoldsNul> => {
  const field = nulParameter(params)
  return field === undefined ? Effect.succeed(params) : Effect.fail(new FieldHoldsNul({ field }))
}

/** The parameters of a form or query text, refusing a NUL or text that is not UTF-8 (see `badlyEncodedField`). */
export const readParameters = (text: string): Effect.Effect<URLSearchParams, FieldHoldsNul> => {
  const field = badlyEncodedField(text)
  return field === undefined
    ? refuseNul(new URLSearchParams(text))
    : Effect.fail(new FieldHoldsNul({ field, notUtf8: true }))
}

/**
 * The fields of a posted HTML form: empty when the body is too long or unreadable (the form's token check then
 * refuses it); `FieldHoldsNul` when the body or a field is not UTF-8 text or holds a NUL.
 */
export const readPostedForm = (request: HttpServerRequest) =>
  readBodyText(request, MAX_FORM_BYTES).pipe(
    Effect.catchAll((error) =>
      error._tag === "BodyUnreadable" && error.reason === NOT_UTF8_BODY
        ? Effect.fail(new FieldHoldsNul({ field: "body", notUtf8: true }))
        : Effect.succeed("")
    ),
    Effect.flatMap(readParameters)
  )
