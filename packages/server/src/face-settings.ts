import { AuthUrl, GraphqlSettings, HttpFaceSettings, MailDelivery, PublicUrl } from "@svc/adapters/http"
import { Layer } from "effect"
import type { ServerConfig } from "./config.js"

/**
 * The HTTP faces' settings from the server configuration, with where callers reach svc (`publicUrl`) and its
 * authorization server (`authUrl`): `svc serve` gives its origin, `makeSvc` its public URL with the prefix.
 */
export const faceSettingsLayer = (
  config: ServerConfig,
  urls: { readonly publicUrl: string; readonly authUrl: string }
) =>
  Layer.mergeAll(
    PublicUrl.layer(urls.publicUrl),
    AuthUrl.layer(urls.authUrl),
    Layer.succeed(HttpFaceSettings, {
      maxBodyBytes: 1024 * 1024,
      allowedOrigins: config.allowedOrigins.length > 0 ? config.allowedOrigins : undefined
    }),
    Layer.succeed(GraphqlSettings, config.graphql),
    Layer.succeed(MailDelivery, { delivering: config.smtpUrl._tag === "Some" })
  )
