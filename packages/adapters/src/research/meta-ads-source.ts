/**
 * The Meta Ad Library source: ads shown on Facebook, Instagram, Messenger and the Audience Network, through the Graph
 * API's `ads_archive` edge with an access token. Plain `fetch`: Meta's Node SDK (`facebook-nodejs-business-sdk`,
 * 24.x) has no object or edge for `ads_archive`, so it would add nothing over a GET. Answers are decoded with Schema.
 * Ads are cross-network, so the source answers for no research platform, only the `ads` part.
 */
import { Ad, type AdQuery, Brand, type SocialSource, type SourceFailure } from "@svc/core/research"
import { Clock, Duration, Effect, Either, Option, ParseResult, Schema } from "effect"
import {
  DEFAULT_DEADLINE,
  DEFAULT_MAX_BYTES,
  httpGet,
  rateLimited,
  refused,
  unavailable,
  withDeadline
} from "./source-http.js"

/** The setting that turns the source on. */
export const META_ADS_TOKEN_SETTING = "SVC_META_ADS_TOKEN"

/** The Graph API version called unless the settings say otherwise. */
export const META_GRAPH_URL = "https://graph.facebook.com/v21.0"

/** The countries asked when a call names none: the Ad Library needs at least one (`ad_reached_countries`). */
export const DEFAULT_AD_COUNTRIES: ReadonlyArray<string> = ["US"]

/** Settings of {@link makeMetaAdsSource}. */
export interface MetaAdsSourceOptions {
  /** An access token with Ad Library API access (`SVC_META_ADS_TOKEN`); undefined: the source is not set up. */
  readonly token: string | undefined
  /** The Graph API base with its version (default {@link META_GRAPH_URL}); tests point it at a replay server. */
  readonly graphUrl?: string
  /** Countries asked when a call names none (default `US`). */
  readonly defaultCountries?: ReadonlyArray<string>
  readonly fetch?: typeof fetch
  /** The longest one call may take, all its pages included (default 10 s). */
  readonly deadline?: Duration.DurationInput
}

const SOURCE = "meta-ads"
const FIELDS = [
  "id",
  "page_id",
  "page_name",
  "ad_creative_bodies",
  "ad_creative_link_titles",
  "ad_delivery_start_time",
  "ad_delivery_stop_time",
  "publisher_platforms",
  "ad_snapshot_url"
].join(",")
const PAGE_MAX = 50

/** An ad as `ads_archive` answers it (the fields asked for; see FIELDS). */
const ArchivedAd = Schema.Struct({
  id: Schema.NonEmptyString,
  page_id: Schema.NonEmptyString,
  page_name: Schema.optionalWith(Schema.String, { default: () => "" }),
  ad_creative_bodies: Schema.optional(Schema.Array(Schema.String)),
  ad_creative_link_titles: Schema.optional(Schema.Array(Schema.String)),
  ad_delivery_start_time: Schema.optional(Schema.String),
  ad_delivery_stop_time: Schema.optional(Schema.String),
  publisher_platforms: Schema.optional(Schema.Array(Schema.String)),
  ad_snapshot_url: Schema.optional(Schema.String)
})
type ArchivedAd = typeof ArchivedAd.Type

const ArchivePage = Schema.Struct({
  data: Schema.Array(ArchivedAd),
  paging: Schema.optional(Schema.Struct({ next: Schema.optional(Schema.String) }))
})

/** A Graph API error answer: `{ error: { message, type, code, error_subcode, fbtrace_id } }`. */
const GraphError = Schema.Struct({
  error: Schema.Struct({
    message: Schema.optionalWith(Schema.String, { default: () => "" }),
    type: Schema.optional(Schema.String),
    code: Schema.optional(Schema.Number),
    error_subcode: Schema.optional(Schema.Number)
  })
})

/** The Meta Ad Library source (`ads` only). */
export const makeMetaAdsSource = (options: MetaAdsSourceOptions): SocialSource => {
  const token = options.token?.trim()
  if (token === undefined || token === "")
    return { name: SOURCE, platforms: [], missingSetting: META_ADS_TOKEN_SETTING }
  const base = (options.graphUrl ?? META_GRAPH_URL).replace(/\/+$/, "")
  const defaultCountries = options.defaultCountries ?? DEFAULT_AD_COUNTRIES
  const bounded = withDeadline("The Meta Ad Library", Duration.decode(options.deadline ?? DEFAULT_DEADLINE))
  const fetcher = options.fetch ?? globalThis.fetch

  /** One page of `ads_archive` at `url`. */
  const page = (url: string) =>
    Effect.flatMap(
      httpGet(url, { fetch: fetcher, label: "The Meta Ad Library", maxBytes: DEFAULT_MAX_BYTES }),
      (answer) =>
        Effect.suspend(() => {
          const json = parseJson(answer.body)
          if (answer.status < 200 || answer.status >= 300)
            return Effect.fail(graphFailure(answer.status, json, answer.headers))
          const decoded = Schema.decodeUnknownEither(ArchivePage, { onExcessProperty: "ignore" })(json)
          if (Either.isRight(decoded)) return Effect.succeed(decoded.right)
          const issue = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)[0]
          const field = issue === undefined || issue.path.length === 0 ? "(the answer)" : issue.path.join(".")
          return Effect.fail(
            unavailable(
              `The Meta Ad Library's answer does not match ads_archive at ${field}: ${issue?.message ?? "invalid"}`
            )
          )
        })
    )

  /**
   * The ads `ads_archive` answers for `params`, following `paging.next` until `limit` (only to the same Graph host:
   * the next URL carries the token).
   */
  const archive = (params: Record<string, string>, limit: number) =>
    Effect.gen(function* () {
      const url = new URL(`${base}/ads_archive`)
      for (const [name, value] of Object.entries({
        ...params,
        fields: FIELDS,
        limit: String(Math.min(PAGE_MAX, limit)),
        access_token: token
      }))
        url.searchParams.set(name, value)
      const found: Array<ArchivedAd> = []
      let next: string | undefined = url.href
      while (next !== undefined && found.length < limit) {
        const answer: typeof ArchivePage.Type = yield* page(next)
        found.push(...answer.data)
        const following = answer.paging?.next
        next = following !== undefined && answer.data.length > 0 && sameOrigin(following, base) ? following : undefined
      }
      return found.slice(0, limit)
    })

  const adsOf = (found: ReadonlyArray<ArchivedAd>) =>
    Effect.map(Clock.currentTimeMillis, (now) => found.map((ad) => adOf(ad, now)))

  const countriesOf = (country: string | undefined) =>
    JSON.stringify(country === undefined || country.trim() === "" ? defaultCountries : [country.trim().toUpperCase()])

  const search = (query: AdQuery, limit: number) =>
    Effect.flatMap(
      archive(
        {
          search_terms: query.query.trim(),
          ad_reached_countries: countriesOf(query.country),
          ad_active_status: query.activeOnly ? "ACTIVE" : "ALL",
          ad_type: "ALL"
        },
        limit
      ),
      adsOf
    )

  const ofBrand = (brand: Brand, activeOnly: boolean, limit: number) =>
    Effect.flatMap(
      archive(
        {
          search_page_ids: JSON.stringify([brand.id]),
          ad_reached_countries: countriesOf(undefined),
          ad_active_status: activeOnly ? "ACTIVE" : "ALL",
          ad_type: "ALL"
        },
        limit
      ),
      adsOf
    )

  const resolveBrand = (name: string): Effect.Effect<Option.Option<Brand>, SourceFailure> => {
    const named = brandRefOf(name)
    if (named === undefined) return Effect.succeedNone
    if (named.kind === "page-id") {
      return Effect.map(
        archive(
          {
            search_page_ids: JSON.stringify([named.value]),
            ad_reached_countries: countriesOf(undefined),
            ad_active_status: "ALL",
            ad_type: "ALL"
          },
          1
        ),
        (found) => Option.map(Option.fromNullable(found[0]), (ad) => new Brand({ id: ad.page_id, name: ad.page_name }))
      )
    }
    // By name: the pages whose ads match the words; the one whose name is the name asked (case, spaces and
    // punctuation aside) is the brand.
    const wanted = comparable(named.value)
    return Effect.map(
      archive(
        {
          search_terms: named.value,
          ad_reached_countries: countriesOf(undefined),
          ad_active_status: "ALL",
          ad_type: "ALL"
        },
        PAGE_MAX
      ),
      (found) =>
        Option.map(
          Option.fromNullable(found.find((ad) => comparable(ad.page_name) === wanted)),
          (ad) => new Brand({ id: ad.page_id, name: ad.page_name })
        )
    )
  }

  const capped = (limit: number) => Math.max(1, Math.min(100, Math.trunc(limit)))
  return {
    name: SOURCE,
    platforms: [],
    missingSetting: null,
    ads: {
      search: (query, limit) => bounded(search(query, capped(limit))),
      resolveBrand: (name) => bounded(resolveBrand(name)),
      ofBrand: (brand, activeOnly, limit) => bounded(ofBrand(brand, activeOnly, capped(limit)))
    }
  }
}

/** How a text names a brand: a numeric page id, a facebook.com page address (by id or vanity name), or a name. */
export const brandRefOf = (text: string): { readonly kind: "page-id" | "name"; readonly value: string } | undefined => {
  const trimmed = text.trim()
  if (trimmed === "") return undefined
  if (/^\d{5,20}$/.test(trimmed)) return { kind: "page-id", value: trimmed }
  let url: URL | undefined
  try {
    url = /^(https?:\/\/)?([\w-]+\.)?(facebook|fb)\.com\//i.test(trimmed)
      ? new URL(/^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`)
      : undefined
  } catch {
    url = undefined
  }
  if (url === undefined) return { kind: "name", value: trimmed }
  const id = url.searchParams.get("id") ?? url.searchParams.get("view_all_page_id")
  if (id !== null && /^\d+$/.test(id)) return { kind: "page-id", value: id }
  const segments = url.pathname.split("/").filter((part) => part !== "")
  const numeric = segments.find((part) => /^\d{5,20}$/.test(part))
  if (numeric !== undefined) return { kind: "page-id", value: numeric }
  const vanity = segments[0]
  if (vanity === undefined || ["ads", "profile.php", "pages", "people"].includes(vanity)) return undefined
  return { kind: "name", value: decodeURIComponent(vanity) }
}

const comparable = (name: string) =>
  name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "")

const sameOrigin = (url: string, base: string) => {
  try {
    return new URL(url).origin === new URL(base).origin
  } catch {
    return false
  }
}

const parseJson = (body: string): unknown => {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

/** A day (`2026-11-02`) or a Graph time (`2026-11-02T08:00:00+0000`) as a Date; null when there is none. */
const timeOf = (text: string | undefined): Date | null => {
  if (text === undefined || text.trim() === "") return null
  const iso = text.trim().replace(/([+-]\d{2})(\d{2})$/, "$1:$2")
  const millis = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00Z` : iso)
  return Number.isFinite(millis) ? new Date(millis) : null
}

const DAY_MS = 24 * 3600_000

const adOf = (ad: ArchivedAd, nowMs: number): Ad => {
  const endedAt = timeOf(ad.ad_delivery_stop_time)
  // A stop day is the last day shown: the ad still runs through it.
  const active = endedAt === null || endedAt.getTime() + DAY_MS > nowMs
  return new Ad({
    id: ad.id,
    brand: new Brand({ id: ad.page_id, name: ad.page_name }),
    title: ad.ad_creative_link_titles?.find((title) => title.trim() !== "") ?? null,
    text: ad.ad_creative_bodies?.find((body) => body.trim() !== "") ?? "",
    startedAt: timeOf(ad.ad_delivery_start_time),
    endedAt,
    active,
    placements: (ad.publisher_platforms ?? []).map((platform) => platform.toLowerCase()),
    // The snapshot URL carries the access token: the library's public page of the ad is answered instead.
    url: `https://www.facebook.com/ads/library/?id=${encodeURIComponent(ad.id)}`,
    source: SOURCE
  })
}

/** The wait after a rate limit whose answer names none. */
const DEFAULT_WAIT_MS = 5 * 60_000

/**
 * How a Graph error maps: codes 4, 17, 32, 613 and 80000–80099 (app, user, page, per-call and business use case
 * limits) are `rate-limited`, with the wait from `X-Business-Use-Case-Usage`'s `estimated_time_to_regain_access`
 * (minutes) or else five minutes; 190 (an invalid or expired token), 10 and 200–299 (no permission for the Ad Library)
 * are `refused`; everything else (5xx, an unknown error) is `unavailable`.
 */
const graphFailure = (status: number, json: unknown, headers: Headers): SourceFailure => {
  const decoded = Schema.decodeUnknownOption(GraphError)(json)
  if (Option.isNone(decoded)) {
    if (status === 429) return rateLimited(`The Meta Ad Library answered 429`, DEFAULT_WAIT_MS)
    return unavailable(`The Meta Ad Library answered ${status}`)
  }
  const { code, message, error_subcode } = decoded.value.error
  const text = `The Meta Ad Library answered ${status} (code ${code ?? "?"}${error_subcode === undefined ? "" : `/${error_subcode}`}): ${message}`
  if (
    code !== undefined &&
    (code === 4 || code === 17 || code === 32 || code === 613 || (code >= 80000 && code < 80100))
  ) {
    return rateLimited(text, regainAccessMs(headers) ?? DEFAULT_WAIT_MS)
  }
  if (code !== undefined && (code === 190 || code === 102 || code === 10 || (code >= 200 && code < 300)))
    return refused(text)
  return unavailable(text)
}

/** The longest `estimated_time_to_regain_access` (minutes) in `X-Business-Use-Case-Usage`, in ms. */
const regainAccessMs = (headers: Headers): number | undefined => {
  const usage = parseJson(headers.get("x-business-use-case-usage") ?? "")
  if (typeof usage !== "object" || usage === null) return undefined
  let minutes: number | undefined
  for (const entries of Object.values(usage)) {
    if (!Array.isArray(entries)) continue
    for (const entry of entries) {
      const value: unknown =
        typeof entry === "object" && entry !== null ? entry.estimated_time_to_regain_access : undefined
      if (typeof value === "number" && value > 0) minutes = Math.max(minutes ?? 0, value)
    }
  }
  return minutes === undefined ? undefined : minutes * 60_000
}
