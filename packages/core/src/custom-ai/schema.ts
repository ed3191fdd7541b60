import { Schema } from "effect"
import { Timestamp } from "../shared/time.js"

/** What a Custom AI is sold as: a chat assistant, or a course (the AI turned off). */
export const CustomAiKind = Schema.Literal("assistant", "course")
export type CustomAiKind = typeof CustomAiKind.Type

/** The longest Custom AI name, in characters. */
export const CUSTOM_AI_NAME_MAX = 120
/** The longest description (what the assistant is for, shown to buyers and agents), in characters. */
export const CUSTOM_AI_DESCRIPTION_MAX = 1_000
/** The longest instructions (how the assistant answers: its system prompt), in characters. */
export const CUSTOM_AI_INSTRUCTIONS_MAX = 8_000
/** The most Custom AIs one workspace holds. */
export const CUSTOM_AIS_PER_WORKSPACE_MAX = 100

/** A Custom AI of a workspace: an assistant that answers from its own knowledge, following its instructions. */
export class CustomAi extends Schema.Class<CustomAi>("CustomAi")({
  id: Schema.String,
  workspaceId: Schema.String,
  name: Schema.String,
  kind: CustomAiKind,
  description: Schema.String,
  instructions: Schema.String,
  /** The workspace's default assistant: asked when a question names no Custom AI. At most one per workspace. */
  isDefault: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp
}) {}
