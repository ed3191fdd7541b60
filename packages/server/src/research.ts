/**
 * The research sources as `svc` composes them from its settings (docs/research-sources.md). Every outside source is
 * listed: one without its setting answers `not-set-up` naming it, so a fresh install answers from the workspace's
 * library and says what an operator can turn on.
 */
import { makeCheckedFetch } from "@svc/adapters/http-sender"
import {
  makeBlueskySource,
  makeMetaAdsSource,
  makeProviderSource,
  PROVIDER_PLATFORMS,
  makeRssSource,
  makeYouTubeSource,
  PUBLIC_APPVIEW_URL
} from "@svc/adapters/research"
import { SocialSources, type SocialSource } from "@svc/core/research"
import { Config, Effect, Layer, Option, Redacted } from "effect"

const secret = (name: string) => Config.option(Config.redacted(name))

/** The research settings. */
export const ResearchConfig = Config.all({
  /** The Bluesky AppView read for research: the public one by default; `off` leaves Bluesky out. */
  blueskyAppView: Config.string("SVC_RESEARCH_BLUESKY_APPVIEW").pipe(Config.withDefault(PUBLIC_APPVIEW_URL)),
  youtubeApiKey: secret("SVC_YOUTUBE_API_KEY"),
  metaAdsToken: secret("SVC_META_ADS_TOKEN"),
  providerUrl: Config.option(Config.url("SVC_RESEARCH_PROVIDER_URL")),
  providerKey: secret("SVC_RESEARCH_PROVIDER_KEY"),
  /** The networks the provider covers (default all four it may). */
  providerPlatforms: Config.option(
    Config.array(Config.literal(...PROVIDER_PLATFORMS)("SVC_RESEARCH_PROVIDER_PLATFORMS"))
  ),
  /** Test-only: admit loopback addresses for the feeds a person names (`SVC_WEBHOOKS_ALLOW_LOOPBACK`). */
  allowLoopback: Config.boolean("SVC_WEBHOOKS_ALLOW_LOOPBACK").pipe(Config.withDefault(false))
})
export type ResearchConfig = Config.Config.Success<typeof ResearchConfig>

const secretOf = (setting: Option.Option<Redacted.Redacted>) =>
  Option.getOrUndefined(Option.map(setting, Redacted.value))

/**
 * The sources of `config`. Addresses a person types (feeds, blogs) and the AppView are reached through the checked
 * fetch, so no answer can come from inside our network; the provider is the operator's own (possibly private) service.
 */
export const researchSourcesOf = (config: ResearchConfig, checked: typeof fetch): ReadonlyArray<SocialSource> => [
  ...(config.blueskyAppView === "off"
    ? []
    : [makeBlueskySource({ appViewUrl: config.blueskyAppView, fetch: checked })]),
  makeYouTubeSource({ apiKey: secretOf(config.youtubeApiKey) }),
  makeRssSource({ fetch: checked }),
  makeMetaAdsSource({ token: secretOf(config.metaAdsToken) }),
  makeProviderSource({
    baseUrl: Option.getOrUndefined(Option.map(config.providerUrl, (url) => url.href.replace(/\/+$/, ""))),
    key: secretOf(config.providerKey),
    ...Option.match(config.providerPlatforms, { onNone: () => ({}), onSome: (platforms) => ({ platforms }) }),
    // The operator's own setting, which may name a proxy on a private network: not a person's typed address.
    fetch: globalThis.fetch
  })
]

/** The outside research sources this server has; the checked fetch's kept connections close with the layer. */
export const ResearchSourcesLive = Layer.unwrapScoped(
  Effect.gen(function* () {
    const config = yield* ResearchConfig
    const checked = yield* Effect.acquireRelease(
      Effect.sync(() => makeCheckedFetch({ allowLoopback: config.allowLoopback })),
      (fetch) => Effect.promise(fetch.close)
    )
    return Layer.succeed(SocialSources, researchSourcesOf(config, checked))
  })
)
