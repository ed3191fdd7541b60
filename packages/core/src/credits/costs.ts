import type { Plan } from "../accounts/schema.js"

/** What one Custom AI message costs, in tenths of a credit: 1 credit, 2 with `mode: "max"`. */
export const CUSTOM_AI_MESSAGE_COST = { standard: 10, max: 20 } as const

/**
 * Tenths per research tool by name (the Social intelligence tools, 0.1 to 0.5 credits each); tools not listed are
 * free. Priced by how much outside data a call reads: one record, a search page, or an analysis over many.
 */
export const RESEARCH_TOOL_COSTS: Readonly<Record<string, number>> = {
  svc_resolve_creator: 1,
  svc_read_social_post: 1,
  svc_read_card: 1,
  svc_search_creators: 2,
  svc_search_social_content: 2,
  svc_search_ads: 2,
  svc_get_brand_ads: 2,
  svc_following_overview: 3,
  svc_study_top_titles: 3,
  svc_get_brand_list_ads: 3,
  svc_analyze_creator: 5,
  svc_analyze_list: 5
}

/** Tenths each plan grants per calendar month (UTC): free 50, starter 500, pro 2,000 credits. */
export const MONTHLY_CREDITS: Readonly<Record<Plan, number>> = {
  free: 500,
  starter: 5_000,
  pro: 20_000
}

/** Tenths as a number of credits, for answers: 15 → 1.5, 10 → 1 (a tenth is exact in JSON: 3 → 0.3). */
export const creditsOf = (tenths: number): number => tenths / 10

/** Tenths as credits for people: 15 → "1.5", 10 → "1", 3 → "0.3", 12345 → "1234.5". */
export const formatCredits = (tenths: number): string => {
  const whole = Math.trunc(tenths / 10)
  const tenth = Math.abs(tenths % 10)
  const sign = tenths < 0 && whole === 0 ? "-" : ""
  return tenth === 0 ? `${sign}${whole}` : `${sign}${whole}.${tenth}`
}

/** Tenths with their unit: "1 credit", "0.4 credits", "2.5 credits". */
export const creditsText = (tenths: number): string =>
  `${formatCredits(tenths)} ${tenths === 10 ? "credit" : "credits"}`

/** The allowance period (`YYYY-MM`, UTC) an instant belongs to. */
export const periodOf = (millis: number): string => new Date(millis).toISOString().slice(0, 7)

/** The day (`YYYY-MM-DD`, UTC) the allowance of `period` is refilled: the first of the next month. */
export const refillsOn = (period: string): string => {
  const [year, month] = period.split("-").map(Number)
  const next = new Date(Date.UTC(year ?? 1970, month ?? 1, 1))
  return next.toISOString().slice(0, 10)
}
