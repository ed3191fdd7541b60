import { Layer } from "effect"
import type { Platform } from "../scheduling/platforms.js"
import { AnalyticsFetching } from "./fetching.js"
import { type MetricsReader, MetricsReaders } from "./ports.js"
import { Analytics } from "./service.js"

/**
 * The Analytics services: the figures and posts the tools read (`Analytics`) and the fetching of due metrics
 * (`AnalyticsFetching`). Needs the ports `AnalyticsRepo` and scheduling's `SocialAccountsRepo` and `CredentialSealer`
 * (to open the accounts posts went out on); reads `MetricsReaders` when provided.
 */
export const AnalyticsLive = Layer.merge(Analytics.Default, AnalyticsFetching.Default)

/**
 * The networks' metrics readers (Bluesky, Mastodon, …). The own feed's (its link clicks) is always there; without
 * this layer only the own feed's posts are measured.
 */
export const AnalyticsPortsLive = (readers: ReadonlyArray<MetricsReader> = []) =>
  Layer.succeed(MetricsReaders, new Map<Platform, MetricsReader>(readers.map((reader) => [reader.platform, reader])))
