import { Layer } from "effect"
import { OAuthAuthorization } from "./authorization.js"
import { OAuthClients } from "./registration.js"
import { BrowserSessions } from "./sessions.js"
import { OAuthTokens } from "./tokens.js"

/** The authorization server's services; needs its repositories, the core ports and `Accounts`. */
export const OAuthLive = Layer.mergeAll(OAuthTokens.Default, OAuthAuthorization.Default, BrowserSessions.Default).pipe(
  Layer.provideMerge(OAuthClients.Default)
)
