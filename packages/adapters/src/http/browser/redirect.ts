import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { noStore } from "./headers.js"

/** A `303 See Other` (after a form post) or `302 Found` to `location`, never cached. */
export const redirectTo = (location: string, status: 302 | 303) =>
  HttpServerResponse.empty({ status, headers: { ...noStore, location } })

/** Where a page sends a browser that is not signed in: the sign-in page of the settings. */
export const signInPath = (base: string): string => `${base}/oauth/sign-in`
