import { Schema } from "effect"
import { Timestamp } from "../shared/time.js"

/** What a Custom AI is sold as: a chat assistant, or a course (the AI turned off). */
export const CustomAiKind = Schema.Literal("assistant", "course")
export type CustomAiKind = typeof CustomAiKind.Type

/** The longest Custom AI name, in characters. */
export const CUSTOM_AI_NAME_MAX = 120

/**
 * A Custom AI of a workspace, as far as the store needs it today: an id, a name and its kind.
 * The Custom AI tools extend this record (knowledge, instructions) later.
 */
export class CustomAi extends Schema.Class<CustomAi>("CustomAi")({
  id: Schema.String,
  workspaceId: Schema.String,
  name: Schema.String,
  kind: CustomAiKind,
  createdAt: Timestamp
}) {}
