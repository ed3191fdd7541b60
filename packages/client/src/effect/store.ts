// The store API client as Effect programs, derived from the server's own `HttpApi` contract by `HttpApiClient`: the
// same schemas encode the requests, decode the answers and type the errors, so client and server cannot drift.
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { StoreApi } from "@svc/core/store-api"
import { Context, type Effect, Layer, type Redacted } from "effect"

/** Where the store API is and the key to call it with. */
export interface StoreApiClientOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:8787`; the client adds `/store-app/v1`. */
  readonly baseUrl: string | URL
  /** A store API key (`svc_pat_…`) or an OAuth access token; sent as `Authorization: Bearer`. */
  readonly token: string | Redacted.Redacted<string>
}

/** Makes the store API client on the `HttpClient` in context, sending every request with the bearer token. */
export const makeStoreApiClient = (options: StoreApiClientOptions) =>
  HttpApiClient.make(StoreApi, {
    baseUrl: options.baseUrl,
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(options.token))
  })

/**
 * The store API client, grouped as the contract is: `client.sales.list({ urlParams: { product } })`,
 * `client.products.create({ payload })`, `client.products.get({ path: { id } })`. Error answers fail with the
 * contract's error classes (`StoreNotFound`, `StoreInvalid`, `StoreForbidden`, ...).
 */
export class StoreApiClient extends Context.Tag("svc/client/StoreApiClient")<
  StoreApiClient,
  Effect.Effect.Success<ReturnType<typeof makeStoreApiClient>>
>() {
  /** The client for one server and key; needs an `HttpClient`, e.g. `FetchHttpClient.layer`. */
  static readonly layer = (options: StoreApiClientOptions) => Layer.effect(StoreApiClient, makeStoreApiClient(options))
}

export {
  StoreBadRequest,
  StoreConflict,
  StoreForbidden,
  StoreInternal,
  StoreInvalid,
  StoreNotFound,
  StorePayloadTooLarge,
  StorePlanRequired,
  StoreRateLimited,
  StoreUnauthorized
} from "@svc/core/store-api"
