import { Effect, Either, Option } from "effect"
import { type FetchedPage, PageFetcher, type PageFetchFailed } from "../custom-ai/knowledge-ports.js"
import { Conflict, type InvalidInput, invalid, NotFound, Unreachable } from "../shared/errors.js"
import type { PageRequest } from "../shared/paging.js"
import { Ids, Transactor } from "../shared/ports.js"
import { now } from "../shared/time.js"
import { SkillsRepo } from "./ports.js"
import { type Skill, SKILL_URL_MAX, SKILLS_PER_WORKSPACE_MAX } from "./schema.js"
import { parseSkillFile, type SkillFile, skillFilePath, utf8Length } from "./skill-file.js"

/** What an import reads: a `SKILL.md` given whole, or the address of one. */
export type SkillSource = { readonly text: string } | { readonly url: string }

// Raw files are served as text/plain, text/markdown or with no type; some hosts send octet-stream for .md.
const readableType = (contentType: string) =>
  contentType === "" || contentType.startsWith("text/") || contentType === "application/octet-stream"

const fetchProblem = (url: string, e: PageFetchFailed): InvalidInput | Unreachable => {
  switch (e.reason) {
    case "invalid-url":
    case "blocked-address":
      return invalid("url", `${url} cannot be fetched: ${e.message}. Give a public http(s) address, or pass text`)
    case "too-large":
      return invalid("url", `the file at ${url} is too large: ${e.message}`)
    default:
      return new Unreachable({
        message: `could not fetch ${url} (${e.reason}): ${e.message}. Try again later, or pass the file as text`
      })
  }
}

const pageText = (url: string, page: FetchedPage): Effect.Effect<string, InvalidInput | Unreachable> => {
  if (page.status >= 500) {
    return Effect.fail(
      new Unreachable({ message: `${url} answered HTTP ${page.status}; try again later, or pass text` })
    )
  }
  if (page.status < 200 || page.status >= 300) {
    return Effect.fail(invalid("url", `${url} answered HTTP ${page.status}, not a SKILL.md`))
  }
  if (page.contentType === "text/html" || page.contentType === "application/xhtml+xml") {
    return Effect.fail(invalid("url", `${url} is a web page (HTML), not a SKILL.md file; give the raw file's address`))
  }
  if (!readableType(page.contentType)) {
    return Effect.fail(invalid("url", `${url} is ${page.contentType}, not a SKILL.md text file`))
  }
  return Effect.succeed(page.text)
}

/** Agent Skills of a workspace: imported as `SKILL.md` text (given or fetched), listed, read and exported unchanged. */
export class Skills extends Effect.Service<Skills>()("svc/skills/Skills", {
  effect: Effect.gen(function* () {
    const repo = yield* SkillsRepo
    const ids = yield* Ids
    const transactor = yield* Transactor
    const pages = yield* PageFetcher

    /** A skill by its id (`skill_…`) or its name; another workspace's is not found. */
    const find = (workspaceId: string, idOrName: string) =>
      Effect.flatMap(
        // Names hold no underscore, so an id can never be taken for a name.
        idOrName.startsWith("skill_") ? repo.findById(workspaceId, idOrName) : repo.findByName(workspaceId, idOrName),
        Option.match({
          onNone: () =>
            Effect.fail(
              new NotFound({ message: `no skill ${idOrName} in this workspace; list them with svc_list_skills` })
            ),
          onSome: Effect.succeed
        })
      )

    /** A skill with its `SKILL.md` read: the parsed fields and body. */
    const read = (workspaceId: string, idOrName: string) =>
      Effect.flatMap(find(workspaceId, idOrName), (skill) =>
        // Stored text passed these checks when imported; one that no longer does is a defect, not the caller's.
        Either.match(parseSkillFile(skill.text), {
          onLeft: (problem) => Effect.die(problem),
          onRight: (file): Effect.Effect<{ readonly skill: Skill; readonly file: SkillFile }> =>
            Effect.succeed({ skill, file })
        })
      )

    /** The exact `SKILL.md` text imported, and where it goes in a skills folder. */
    const exportFile = (workspaceId: string, idOrName: string) =>
      Effect.map(find(workspaceId, idOrName), (skill) => ({ skill, path: skillFilePath(skill.name) }))

    const textOf = (source: SkillSource): Effect.Effect<string, InvalidInput | Unreachable> => {
      if ("text" in source) return Effect.succeed(source.text)
      const url = source.url.trim()
      const parsed = URL.canParse(url) ? new URL(url) : undefined
      if (
        parsed === undefined ||
        (parsed.protocol !== "http:" && parsed.protocol !== "https:") ||
        url.length > SKILL_URL_MAX
      ) {
        return Effect.fail(
          invalid("url", `url must be an http or https address of at most ${SKILL_URL_MAX} characters`)
        )
      }
      return pages.fetch(url).pipe(
        Effect.mapError((e) => fetchProblem(url, e)),
        Effect.flatMap((page) => pageText(url, page))
      )
    }

    /**
     * Imports a `SKILL.md`, stored exactly as given. A name the workspace already has is a conflict unless `replace`,
     * which replaces that skill's text (its id and creation time stay).
     */
    const importSkill = (workspaceId: string, source: SkillSource, options: { readonly replace: boolean }) =>
      Effect.gen(function* () {
        // Fetched outside the transaction: a slow host must not hold the workspace's lock.
        const text = yield* textOf(source)
        const file = yield* parseSkillFile(text)
        const size = utf8Length(text)
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            yield* repo.lockWorkspace(workspaceId)
            const at = yield* now
            const existing = yield* repo.findByName(workspaceId, file.name)
            if (Option.isSome(existing)) {
              if (!options.replace) {
                return yield* new Conflict({
                  message: `the workspace already has a skill named ${file.name} (${existing.value.id}); pass replace: true to replace its text`
                })
              }
              yield* repo.replace(workspaceId, existing.value.id, { description: file.description, text, size, at })
              const skill: Skill = { ...existing.value, description: file.description, text, size, updatedAt: at }
              return { skill, replaced: true }
            }
            if ((yield* repo.count(workspaceId)) >= SKILLS_PER_WORKSPACE_MAX) {
              return yield* invalid(
                "",
                `a workspace holds at most ${SKILLS_PER_WORKSPACE_MAX} skills; replace one (same name, replace: true) instead`
              )
            }
            const skill: Skill = {
              id: yield* ids.make("skill_"),
              workspaceId,
              name: file.name,
              description: file.description,
              text,
              size,
              createdAt: at,
              updatedAt: at
            }
            yield* repo.insert(skill)
            return { skill, replaced: false }
          })
        )
      })

    /** One page of the workspace's skills, newest first. */
    const listPage = (workspaceId: string, page: PageRequest) => repo.listPage(workspaceId, page)

    return { listPage, read, exportFile, importSkill } as const
  })
}) {}
