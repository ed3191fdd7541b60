/**
 * A Mastodon sign-in in flight, in two halves that the callback wants to agree:
 *
 * - the `state` sent through the instance: the instance and a nonce, signed with the server's link key and
 *   short-lived. It carries no right of its own, since it passes through the instance's hands and logs;
 * - a cookie of the browser that started the sign-in: the same nonce and the connect link's token (the right to
 *   connect an account to its workspace, itself signed and checked again on the way back).
 *
 * So no one can make a state up, and a state handed to someone else's browser (to connect their account to the
 * sender's workspace) does nothing there.
 */
import { type MailSigner, readLink, signLink } from "@svc/core/mail"
import { Secrets } from "@svc/core/shared"
import { Clock, Effect, Encoding, Option } from "effect"

const PURPOSE = "mastodon-sign-in"

/** How long a person has on the instance's pages before the sign-in expires. */
export const SIGN_IN_MS = 15 * 60_000

/** A sign-in the callback may finish. */
export interface SignIn {
  /** The connect link's token, from the browser's cookie: check it with `readConnectLink`. */
  readonly connectToken: string
  /** The instance's origin. */
  readonly instance: string
}

/** A new sign-in on `instance` for the connect link `connectToken`: its `state`, and its cookie's value. */
export const newSignIn = (connectToken: string, instance: string) =>
  Effect.gen(function* () {
    const nonce = Encoding.encodeBase64Url(yield* (yield* Secrets).randomBytes(18))
    const expiresAt = (yield* Clock.currentTimeMillis) + SIGN_IN_MS
    const state = yield* signLink(PURPOSE, [instance, nonce, String(expiresAt)])
    // A nonce is base64url, so the first dot ends it (the token has dots of its own).
    return { state, cookie: `${nonce}.${connectToken}` }
  })

/** The sign-in `state` and the browser's `cookie` stand for together; none when either is not ours, or it expired. */
export const readSignIn = (
  state: string,
  cookie: string | undefined
): Effect.Effect<Option.Option<SignIn>, never, MailSigner> =>
  Effect.gen(function* () {
    const fields = yield* readLink(PURPOSE, state, 3)
    if (Option.isNone(fields) || cookie === undefined) return Option.none()
    const [instance = "", nonce = "", expires = ""] = fields.value
    if (!(Number(expires) > (yield* Clock.currentTimeMillis))) return Option.none()
    const dot = cookie.indexOf(".")
    if (dot < 0 || cookie.slice(0, dot) !== nonce) return Option.none()
    return Option.some({ connectToken: cookie.slice(dot + 1), instance })
  })
