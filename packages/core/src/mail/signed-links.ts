/**
 * Signed link tokens: `<payload>.<signature>`, the payload the base64url of the link's fields (one per line) and the
 * signature `MailSigner`'s over the link's purpose and those fields, so a link works without signing in and a forged
 * or altered one — or one made for another purpose — does nothing.
 */
import { Effect, Either, Encoding, Option } from "effect"
import { MailSigner } from "./ports.js"

/** A token longer than this is no token of ours; refused before anything is decoded. */
const MAX_TOKEN_LENGTH = 800

const signedText = (purpose: string, fields: ReadonlyArray<string>) => [purpose, ...fields].join("\n")

/** The token of a link for `purpose` carrying `fields` (none may hold a line break). */
export const signLink = (purpose: string, fields: ReadonlyArray<string>) =>
  Effect.map(
    Effect.flatMap(MailSigner, (signer) => signer.sign(signedText(purpose, fields))),
    (signature) => [Encoding.encodeBase64Url(fields.join("\n")), signature].join(".")
  )

/** The fields a token for `purpose` carries, when this server signed it with exactly `count` of them; else none. */
export const readLink = (purpose: string, token: string, count: number) =>
  Effect.gen(function* () {
    if (token.length > MAX_TOKEN_LENGTH) return Option.none<ReadonlyArray<string>>()
    const [payload, signature, ...rest] = token.split(".")
    if (payload === undefined || signature === undefined || signature === "" || rest.length > 0) {
      return Option.none<ReadonlyArray<string>>()
    }
    const decoded = Encoding.decodeBase64UrlString(payload)
    // Only the one spelling we issue: a payload that decodes the same despite altered characters is refused.
    if (Either.isLeft(decoded) || Encoding.encodeBase64Url(decoded.right) !== payload) {
      return Option.none<ReadonlyArray<string>>()
    }
    const fields = decoded.right.split("\n")
    if (fields.length !== count) return Option.none<ReadonlyArray<string>>()
    const signer = yield* MailSigner
    return (yield* signer.verify(signedText(purpose, fields), signature)) ? Option.some(fields) : Option.none()
  })
