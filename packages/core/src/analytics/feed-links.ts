import { Effect } from "effect"
import { MailSigner } from "../mail/ports.js"

/** The longest address a feed link may lead to. */
export const FEED_LINK_URL_MAX = 2_000

const PURPOSE = "feed-click"

const signedText = (postId: string, url: string) => [PURPOSE, postId, url].join("\n")

/** Whether `url` is an address a feed link may lead to: http or https, one line, not too long. */
export const isFeedLinkTarget = (url: string): boolean => {
  if (url.length > FEED_LINK_URL_MAX || /[\r\n]/.test(url)) return false
  try {
    const parsed = new URL(url)
    return parsed.protocol === "http:" || parsed.protocol === "https:"
  } catch {
    return false
  }
}

/**
 * The signature of a link on the own feed from post `postId` to `url`, with the server's link key: the feed's
 * redirect (`/s/<handle>/posts/<postId>/go?to=<url>&sig=<signature>`) counts the click and follows only links it
 * signed, so it is no open redirect.
 */
export const signFeedLink = (postId: string, url: string) =>
  Effect.flatMap(MailSigner, (signer) => signer.sign(signedText(postId, url)))

/** Whether `signature` is this server's for a link from post `postId` to `url`. */
export const checkFeedLink = (postId: string, url: string, signature: string) =>
  isFeedLinkTarget(url) && signature.length > 0 && signature.length <= 200
    ? Effect.flatMap(MailSigner, (signer) => signer.verify(signedText(postId, url), signature))
    : Effect.succeed(false)

/** The redirect path of a feed link, under the server's public address. */
export const feedLinkPath = (handle: string, postId: string, url: string, signature: string) =>
  `/s/${encodeURIComponent(handle)}/posts/${encodeURIComponent(postId)}/go?to=${encodeURIComponent(url)}&sig=${encodeURIComponent(signature)}`
