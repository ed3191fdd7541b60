import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import { Option } from "effect"

/** Who is calling, for rate limits: the peer address. Forwarded headers are not trusted. */
export const requesterOf = (request: HttpServerRequest): string =>
  Option.getOrElse(request.remoteAddress, () => "unknown")
