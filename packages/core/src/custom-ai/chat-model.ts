import { Context, type Effect, type Option, Schema } from "effect"

/** One earlier turn of a chat, given to the model with the new question. */
export interface ModelTurn {
  readonly role: "user" | "assistant"
  readonly text: string
}

/** What a Custom AI asks its language model. */
export interface ModelPrompt {
  /** The assistant's instructions and the knowledge passages it may use, as one system prompt. */
  readonly system: string
  /** The chat so far, oldest first, ending with the user's new message. */
  readonly turns: ReadonlyArray<ModelTurn>
  /** `max` lets the provider spend more (its larger model when one is configured, more output). */
  readonly mode: "standard" | "max"
}

/** A model's answer: untrusted text, stored and shown, never executed. */
export interface ModelAnswer {
  readonly text: string
  /** The model that answered, as the provider names it. */
  readonly model: string
}

/** The provider did not answer in time, was overloaded (429, 5xx), or could not be reached: try again later. */
export class ModelUnreachable extends Schema.TaggedError<ModelUnreachable>()("ModelUnreachable", {
  message: Schema.String,
  /** Seconds to wait, from the provider's `Retry-After` when it sent one. */
  retryAfterSeconds: Schema.optional(Schema.Number)
}) {}

/** The provider refused the request for good: a bad or revoked key, an unknown model, a malformed request. */
export class ModelRefused extends Schema.TaggedError<ModelRefused>()("ModelRefused", {
  message: Schema.String
}) {}

/** The configured language model, described for answers and `/settings` (never the key). */
export interface ModelDescription {
  /** `openai`, `anthropic` or `openai-compatible`. */
  readonly provider: string
  readonly model: string
  /** The embedding model, when one is configured. */
  readonly embeddingModel: Option.Option<string>
}

/**
 * The language model Custom AIs answer with, chosen by configuration (`SVC_AI_PROVIDER`). With none configured,
 * `description` is none, `generate` is never called, and Custom AIs answer extractively from their knowledge.
 */
export class ChatModel extends Context.Tag("svc/custom-ai/ChatModel")<
  ChatModel,
  {
    readonly description: Option.Option<ModelDescription>
    readonly generate: (prompt: ModelPrompt) => Effect.Effect<ModelAnswer, ModelUnreachable | ModelRefused>
    /** Embeds texts (one vector per text, in order) when an embedding model is configured. */
    readonly embed: Option.Option<
      (
        texts: ReadonlyArray<string>
      ) => Effect.Effect<ReadonlyArray<ReadonlyArray<number>>, ModelUnreachable | ModelRefused>
    >
  }
>() {}
