/**
 * Signed unsubscribe links: `<base>/u/<token>`, the token naming a workspace and an address (`signed-links.ts`), so it
 * works without signing in and a forged or altered one does nothing.
 */
import { Effect, Option } from "effect"
import { MailingList } from "./ports.js"
import { readLink, signLink } from "./signed-links.js"

/** Who a token unsubscribes. */
export interface UnsubscribeTarget {
  readonly workspaceId: string
  readonly email: string
}

const PURPOSE = "unsubscribe"

/** The token of the unsubscribe link of `email` on the email list of `workspaceId`. */
export const unsubscribeToken = (target: UnsubscribeTarget) => signLink(PURPOSE, [target.workspaceId, target.email])

/** The whole link, under the public base URL. */
export const unsubscribeUrl = (publicBase: string, token: string): string =>
  `${publicBase.replace(/\/+$/, "")}/u/${token}`

/** Who a token names, when it is one this server signed; none for anything else. */
export const readUnsubscribeToken = (token: string) =>
  Effect.map(readLink(PURPOSE, token, 2), (fields) =>
    Option.flatMap(fields, ([workspaceId = "", email = ""]) =>
      workspaceId === "" || email === "" ? Option.none() : Option.some({ workspaceId, email })
    )
  )

/**
 * Unsubscribes the person a token names from that workspace's list (subscribed → unsubscribed; anyone else is left
 * as they are, so repeating it changes nothing). None when the token is not ours.
 */
export const unsubscribeByToken = (token: string) =>
  Effect.gen(function* () {
    const target = yield* readUnsubscribeToken(token)
    if (Option.isNone(target)) return Option.none()
    const list = yield* MailingList
    const outcome = yield* list.optOut(target.value.workspaceId, target.value.email, "unsubscribed")
    return Option.some({ ...target.value, ...outcome })
  })
