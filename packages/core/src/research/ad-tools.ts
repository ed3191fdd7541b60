import { Effect, Schema } from "effect"
import { defineTool } from "../tools/tool.js"
import { makeResearchCharging } from "./charging.js"
import { RESEARCH_LIMITS } from "./limits.js"
import { ResearchLists } from "./lists.js"
import { mergeReports } from "./asking.js"
import { Ad, Brand, type SourceReport } from "./schema.js"
import { Research } from "./service.js"
import { listChoiceFields, QueryField, RowsField, sourcedOutput } from "./tool-fields.js"
import { listChoiceOf } from "./list-tools.js"

const readOnly = { destructiveHint: false, idempotentHint: true, openWorldHint: true } as const

const CountryField = Schema.String.pipe(Schema.pattern(/^[A-Za-z]{2}$/)).annotations({
  description: "ISO country code the ads reached, e.g. US or DE; default US."
})
const ActiveField = Schema.Boolean.annotations({ description: "Only ads still running; default true." })

/** The ad research tools: search an ad library, one brand's ads, a brand list's ads. */
export const adTools = Effect.gen(function* () {
  const research = yield* Research
  const lists = yield* ResearchLists
  const { charged } = yield* makeResearchCharging

  return [
    defineTool({
      name: "svc_search_ads",
      title: "Search ads",
      group: "Social intelligence",
      write: false,
      annotations: readOnly,
      description:
        "Search the ad library for ads containing words: brand, text, headline, dates, placements. Save brands with svc_save_brands_to_list. 0.2 credits.",
      input: {
        query: QueryField,
        country: Schema.optional(CountryField),
        activeOnly: Schema.optional(ActiveField),
        limit: Schema.optional(RowsField("ads", 25))
      },
      output: {
        ads: Schema.Array(Ad).annotations({ description: "Ads found, newest first per source." }),
        ...sourcedOutput
      },
      handler: (input, { principal }) =>
        charged(
          "svc_search_ads",
          principal,
          Effect.map(
            research.searchAds(
              { query: input.query, country: input.country?.toUpperCase(), activeOnly: input.activeOnly ?? true },
              input.limit ?? 25
            ),
            (found) => ({ ads: found.value, sources: found.sources })
          )
        )
    }),
    defineTool({
      name: "svc_get_brand_ads",
      title: "Get brand ads",
      group: "Social intelligence",
      write: false,
      annotations: readOnly,
      description:
        "List one brand's ads from the ad library, newest first; the brand by name, page URL or page id. 0.2 credits.",
      input: {
        brand: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(RESEARCH_LIMITS.queryCharacters)).annotations({
          description: "Brand name, facebook.com page URL, or page id."
        }),
        activeOnly: Schema.optional(ActiveField),
        limit: Schema.optional(RowsField("ads", 25))
      },
      output: {
        brand: Brand,
        ads: Schema.Array(Ad).annotations({ description: "The brand's ads, newest first." }),
        ...sourcedOutput
      },
      handler: (input, { principal }) =>
        charged(
          "svc_get_brand_ads",
          principal,
          Effect.gen(function* () {
            const found = yield* research.resolveBrand(input.brand)
            const ads = yield* research.brandAds(
              found.value.source,
              found.value.brand,
              input.activeOnly ?? true,
              input.limit ?? 25
            )
            return { brand: found.value.brand, ads: ads.value, sources: [...found.sources, ...ads.sources] }
          })
        )
    }),
    defineTool({
      name: "svc_get_brand_list_ads",
      title: "Get brand list ads",
      group: "Social intelligence",
      write: false,
      annotations: readOnly,
      description:
        "List the ads of every brand on a brand list (its first 20 brands), per brand, newest first. 0.3 credits.",
      input: {
        ...listChoiceFields,
        activeOnly: Schema.optional(ActiveField),
        perBrand: Schema.optional(
          Schema.Int.pipe(Schema.between(1, 25)).annotations({ description: "Most ads per brand, 1–25; default 10." })
        )
      },
      output: {
        brands: Schema.Array(
          Schema.Struct({
            brand: Brand,
            ads: Schema.Array(Ad),
            error: Schema.NullOr(Schema.String).annotations({ description: "Why this brand's ads are missing." })
          })
        ).annotations({ description: "One entry per brand on the list (the first 20)." }),
        ...sourcedOutput
      },
      handler: (input, { principal, workspace }) =>
        charged(
          "svc_get_brand_list_ads",
          principal,
          Effect.gen(function* () {
            const { id } = yield* workspace
            const { members } = yield* lists.read(id, "brands", yield* listChoiceOf(input))
            const source = research.adSources[0]
            if (source === undefined) return yield* Effect.fail(research.noAdSource("the ads of the list's brands"))
            const reports: Array<SourceReport> = []
            const brands = yield* Effect.forEach(
              members.slice(0, RESEARCH_LIMITS.creatorsPerStudy),
              (member) => {
                const brand = new Brand({ id: member.key, name: member.name })
                return research.brandAds(source, brand, input.activeOnly ?? true, input.perBrand ?? 10).pipe(
                  Effect.map((found) => {
                    reports.push(...found.sources)
                    return { brand, ads: found.value, error: null }
                  }),
                  Effect.catchAll((failure) => Effect.succeed({ brand, ads: [], error: failure.message }))
                )
              },
              { concurrency: RESEARCH_LIMITS.concurrency }
            )
            return { brands, sources: mergeReports(reports) }
          })
        )
    })
  ]
})
