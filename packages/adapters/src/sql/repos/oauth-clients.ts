import { GrantType, OAuthClient, OAuthClientsRepo, TokenEndpointAuthMethod } from "@svc/core/auth"
import { Effect, Layer, Option, Schema } from "effect"
import { jsonColumn } from "../json-column.js"
import { LeanSql } from "../lean.js"
import { withSpan } from "@svc/core/shared"

interface ClientRow {
  readonly id: string
  readonly secret_hash: string | null
  readonly auth_method: string
  readonly name: string | null
  readonly redirect_uris: unknown
  readonly grant_types: unknown
  readonly scope: string | null
  readonly client_uri: string | null
  readonly created_at: Date
}

// jsonb may arrive parsed or as text depending on the engine's parsers; accept both.
const decodeUris = Schema.decodeUnknownSync(Schema.Array(Schema.String))
const decodeGrantTypes = Schema.decodeUnknownSync(Schema.Array(GrantType))
const decodeMethod = Schema.decodeUnknownSync(TokenEndpointAuthMethod)

const toClient = (row: ClientRow) => ({
  client: new OAuthClient({
    id: row.id,
    name: row.name,
    redirectUris: decodeUris(jsonColumn(row.redirect_uris)),
    grantTypes: decodeGrantTypes(jsonColumn(row.grant_types)),
    tokenEndpointAuthMethod: decodeMethod(row.auth_method),
    scope: row.scope,
    clientUri: row.client_uri,
    createdAt: row.created_at
  }),
  secretHash: row.secret_hash
})

/** `OAuthClientsRepo` over SQL: registered clients survive restarts; secrets only as SHA-256. */
export const OAuthClientsRepoSql = Layer.effect(
  OAuthClientsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      insert: (client, secretHash, metadata) =>
        lean`INSERT INTO oauth_clients (id, secret_hash, auth_method, name, redirect_uris, grant_types, scope, client_uri,
                                       metadata, created_at)
            VALUES (${client.id}, ${secretHash}, ${client.tokenEndpointAuthMethod}, ${client.name},
                    ${JSON.stringify(client.redirectUris)}::jsonb, ${JSON.stringify(client.grantTypes)}::jsonb,
                    ${client.scope}, ${client.clientUri}, ${JSON.stringify(metadata)}::jsonb, ${client.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      find: (clientId) =>
        lean<ClientRow>`SELECT id, secret_hash, auth_method, name, redirect_uris, grant_types, scope, client_uri, created_at
                       FROM oauth_clients WHERE id = ${clientId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toClient)),
          Effect.orDie,
          withSpan("OAuthClientsRepo.find")
        )
    }
  })
)
