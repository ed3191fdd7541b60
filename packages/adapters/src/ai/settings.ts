import type { Option, Redacted } from "effect"

/** The language-model providers `SVC_AI_PROVIDER` names (besides `none`). */
export type ChatModelProvider = "openai" | "anthropic" | "openai-compatible"

/** Where each provider's API lives when `SVC_AI_BASE_URL` is unset (openai-compatible has none: it must be set). */
export const DEFAULT_BASE_URLS = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com"
} as const

/** Output tokens a standard answer may spend, and a `max` one. */
export const OUTPUT_TOKENS = { standard: 1024, max: 4096 } as const

/** A configured language model, as the server reads it from `SVC_AI_*`. */
export interface ChatModelSettings {
  readonly provider: ChatModelProvider
  readonly apiKey: Option.Option<Redacted.Redacted>
  /** The API's base URL without a trailing slash. */
  readonly baseUrl: string
  readonly model: string
  /** The model for `mode: "max"`; the standard model (with more output) when none. */
  readonly maxModel: Option.Option<string>
  readonly embeddingModel: Option.Option<string>
  /** One deadline per provider call. */
  readonly timeoutMs: number
}
