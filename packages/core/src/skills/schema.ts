/** Agent Skills as stored: the exact `SKILL.md` text imported, with the fields lists show. */

/** The longest skill name (Agent Skills format). */
export const SKILL_NAME_MAX = 64
/** The longest skill description (Agent Skills format). */
export const SKILL_DESCRIPTION_MAX = 1024
/** The longest `compatibility` value (Agent Skills format). */
export const SKILL_COMPATIBILITY_MAX = 500
/** The longest `SKILL.md`, in characters: the format sets none; a skill loads whole into an agent's context. */
export const SKILL_TEXT_MAX = 100_000
/** The most skills one workspace holds. */
export const SKILLS_PER_WORKSPACE_MAX = 200
/** The longest address a skill is imported from. */
export const SKILL_URL_MAX = 2000

/** A skill as lists show it: everything but its text. */
export interface SkillSummary {
  readonly id: string
  readonly workspaceId: string
  /** Unique in its workspace. */
  readonly name: string
  readonly description: string
  /** The `SKILL.md` size in UTF-8 bytes. */
  readonly size: number
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A stored skill with its `SKILL.md` exactly as imported. */
export interface Skill extends SkillSummary {
  readonly text: string
}
