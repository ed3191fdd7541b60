import { Layer } from "effect"
import { OAuthAuthorization } from "./authorization.js"
import { OAuthClients } from "./registration.js"
import { BrowserSessions } from "./sessions.js"
import { OAuthTokens } from "./tokens.js"

/** The authorization server's services, each bringing the services it builds on; needs its repositories and the core ports. */
export const OAuthLive = Layer.mergeAll(
  OAuthClients.Default,
  OAuthTokens.Default,
  OAuthAuthorization.Default,
  BrowserSessions.Default
)
