import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../shared/paging.js"
import type { Skill, SkillSummary } from "./schema.js"

/** Stored skills. */
export class SkillsRepo extends Context.Tag("svc/skills/SkillsRepo")<
  SkillsRepo,
  {
    /** Holds the workspace's skill imports back until the transaction ends, so names and the cap stay true. */
    readonly lockWorkspace: (workspaceId: string) => Effect.Effect<void>
    readonly count: (workspaceId: string) => Effect.Effect<number>
    readonly findById: (workspaceId: string, id: string) => Effect.Effect<Option.Option<Skill>>
    readonly findByName: (workspaceId: string, name: string) => Effect.Effect<Option.Option<Skill>>
    readonly insert: (skill: Skill) => Effect.Effect<void>
    /** Replaces a skill's text, with the description and size it holds. */
    readonly replace: (
      workspaceId: string,
      id: string,
      change: { readonly description: string; readonly text: string; readonly size: number; readonly at: Date }
    ) => Effect.Effect<void>
    /** One page of the workspace's skills, newest first. */
    readonly listPage: (workspaceId: string, page: PageRequest) => Effect.Effect<Page<SkillSummary>>
  }
>() {}
