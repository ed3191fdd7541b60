import { Clock, Effect, Option } from "effect"
import { Ids, Transactor } from "../shared/ports.js"
import { Conflict, invalid, NotFound } from "../shared/errors.js"
import { withSpan } from "../shared/spans.js"
import { RESEARCH_LIMITS } from "./limits.js"
import { type ResearchList, type ResearchListKind, type ResearchListMember, ResearchListsRepo } from "./ports.js"
import type { ResearchPlatform } from "./schema.js"

/** Which list a call means: an existing one by id, or one by name (made when `create` and it does not exist). */
export type ListChoice = { readonly listId: string } | { readonly listName: string }

/** A member to add, already resolved (its network id known). */
export interface NewMember {
  readonly platform: ResearchPlatform | null
  readonly key: string
  readonly handle: string
  readonly name: string
  readonly url: string | null
}

/** A list with its members, as the list tools answer it. */
export interface ListWithMembers {
  readonly list: ResearchList
  readonly members: ReadonlyArray<ResearchListMember>
}

const KIND_WORD: Record<ResearchListKind, string> = { creators: "creator list", brands: "brand list" }

/** The workspace's research lists: creators to compare and brands whose ads to watch. */
export class ResearchLists extends Effect.Service<ResearchLists>()("svc/research/ResearchLists", {
  effect: Effect.gen(function* () {
    const repo = yield* ResearchListsRepo
    const ids = yield* Ids
    const transactor = yield* Transactor

    const notFound = (kind: ResearchListKind, choice: ListChoice) =>
      new NotFound({
        message:
          "listId" in choice
            ? `no ${KIND_WORD[kind]} ${choice.listId} in this workspace`
            : `no ${KIND_WORD[kind]} named "${choice.listName}" in this workspace`
      })

    /** The list the choice names, of the kind asked, or `NotFound`. */
    const find = (workspaceId: string, kind: ResearchListKind, choice: ListChoice) =>
      Effect.gen(function* () {
        const found =
          "listId" in choice
            ? yield* repo.find(workspaceId, choice.listId)
            : yield* repo.findByName(workspaceId, kind, choice.listName.trim())
        if (Option.isNone(found) || found.value.kind !== kind) return yield* notFound(kind, choice)
        return found.value
      })

    /** The list with its members. */
    const read = (workspaceId: string, kind: ResearchListKind, choice: ListChoice) =>
      Effect.gen(function* () {
        const list = yield* find(workspaceId, kind, choice)
        return { list, members: yield* repo.members(list.id) } satisfies ListWithMembers
      }).pipe(withSpan("ResearchLists.read"))

    /** The locked list the choice names; a name that is not a list yet makes one (inside the transaction). */
    const lockOrCreate = (workspaceId: string, kind: ResearchListKind, choice: ListChoice, at: Date) =>
      Effect.gen(function* () {
        const existing =
          "listId" in choice
            ? yield* repo.lock(workspaceId, choice.listId)
            : yield* Effect.flatMap(repo.findByName(workspaceId, kind, choice.listName.trim()), (found) =>
                Option.isSome(found) ? repo.lock(workspaceId, found.value.id) : Effect.succeed(Option.none())
              )
        if (Option.isSome(existing)) {
          if (existing.value.kind !== kind) return yield* notFound(kind, choice)
          return existing.value
        }
        if ("listId" in choice) return yield* notFound(kind, choice)
        if ((yield* repo.countLists(workspaceId)) >= RESEARCH_LIMITS.listsPerWorkspace) {
          return yield* new Conflict({
            message: `this workspace has ${RESEARCH_LIMITS.listsPerWorkspace} research lists, the most it may have; add to an existing list`
          })
        }
        const list = {
          id: yield* ids.make(kind === "creators" ? "crl_" : "brl_"),
          workspaceId,
          kind,
          name: choice.listName.trim(),
          createdAt: at,
          updatedAt: at
        }
        yield* repo.insert(list)
        return { ...list, memberCount: 0 }
      })

    /** Adds members to the list (made when named and missing); answers it with its members and how many were new. */
    const add = (workspaceId: string, kind: ResearchListKind, choice: ListChoice, members: ReadonlyArray<NewMember>) =>
      transactor
        .withTransaction(
          Effect.gen(function* () {
            const at = new Date(yield* Clock.currentTimeMillis)
            const list = yield* lockOrCreate(workspaceId, kind, choice, at)
            const current = yield* repo.members(list.id)
            const known = new Set(current.map((m) => `${m.platform ?? ""}:${m.key}`))
            const fresh = members.filter((m) => !known.has(`${m.platform ?? ""}:${m.key}`))
            const unique = [...new Map(fresh.map((m) => [`${m.platform ?? ""}:${m.key}`, m])).values()]
            if (current.length + unique.length > RESEARCH_LIMITS.listMembers) {
              return yield* invalid(
                kind,
                `the list would hold ${current.length + unique.length} ${kind}; a list holds at most ${RESEARCH_LIMITS.listMembers} (it has ${current.length})`
              )
            }
            const added = yield* repo.addMembers(
              list.id,
              unique.map((m) => ({ ...m, listId: list.id, addedAt: at })),
              at
            )
            const after = yield* repo.find(workspaceId, list.id)
            return {
              list: Option.getOrElse(after, () => list),
              members: yield* repo.members(list.id),
              added
            }
          })
        )
        .pipe(withSpan("ResearchLists.add"))

    /** Removes members by key; answers the list as it now is and how many were removed. */
    const remove = (
      workspaceId: string,
      kind: ResearchListKind,
      choice: ListChoice,
      keys: ReadonlyArray<{ readonly platform: ResearchPlatform | null; readonly key: string }>
    ) =>
      transactor
        .withTransaction(
          Effect.gen(function* () {
            const at = new Date(yield* Clock.currentTimeMillis)
            const found = yield* find(workspaceId, kind, choice)
            yield* repo.lock(workspaceId, found.id)
            const removed = yield* repo.removeMembers(found.id, keys, at)
            const after = yield* repo.find(workspaceId, found.id)
            return { list: Option.getOrElse(after, () => found), members: yield* repo.members(found.id), removed }
          })
        )
        .pipe(withSpan("ResearchLists.remove"))

    return { find, read, add, remove } as const
  })
}) {}
