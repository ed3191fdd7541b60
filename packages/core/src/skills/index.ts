/** Agent Skills: the `Skills` service, its repository, the `SKILL.md` reader and the Skills group's tools. */
export { SkillsRepo } from "./ports.js"
export {
  SKILL_COMPATIBILITY_MAX,
  SKILL_DESCRIPTION_MAX,
  SKILL_NAME_MAX,
  SKILL_TEXT_MAX,
  SKILL_URL_MAX,
  type Skill,
  SKILLS_PER_WORKSPACE_MAX,
  type SkillSummary
} from "./schema.js"
export { type SkillSource, Skills } from "./service.js"
export { parseSkillFile, type SkillFile, skillFilePath, skillNameProblem, utf8Length } from "./skill-file.js"
export { skillTools } from "./tools.js"
