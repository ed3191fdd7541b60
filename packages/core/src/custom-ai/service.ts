import { Effect, Option } from "effect"
import { Credits } from "../credits/service.js"
import { Conflict, invalid, NotFound } from "../shared/errors.js"
import type { PageRequest } from "../shared/paging.js"
import { Ids, Transactor } from "../shared/ports.js"
import { now } from "../shared/time.js"
import { AskJobs } from "./ask-jobs.js"
import { type CustomAiChanges, CustomAisRepo } from "./ports.js"
import {
  CUSTOM_AI_DESCRIPTION_MAX,
  CUSTOM_AI_INSTRUCTIONS_MAX,
  CUSTOM_AI_NAME_MAX,
  CUSTOM_AIS_PER_WORKSPACE_MAX,
  CustomAi,
  type CustomAiKind
} from "./schema.js"

/** The fields a Custom AI is made or changed with; each is checked here, whichever face it came through. */
export interface CustomAiFields {
  readonly name?: string | undefined
  readonly kind?: CustomAiKind | undefined
  readonly description?: string | undefined
  readonly instructions?: string | undefined
  readonly isDefault?: boolean | undefined
}

/** The failure for a Custom AI id the workspace does not have (or that is another workspace's). */
export const customAiNotFound = (id: string) =>
  new NotFound({ message: `no Custom AI ${id} in this workspace; list them with svc_list_custom_ai` })

const checkedName = (name: string) => {
  const trimmed = name.trim()
  return trimmed.length === 0 || trimmed.length > CUSTOM_AI_NAME_MAX
    ? Effect.fail(invalid("name", `name must be 1 to ${CUSTOM_AI_NAME_MAX} characters`))
    : Effect.succeed(trimmed)
}

const checkedText = (field: string, text: string | undefined, max: number) =>
  text === undefined || text.length <= max
    ? Effect.succeed(text)
    : Effect.fail(invalid(field, `${field} must be at most ${max} characters (got ${text.length})`))

/** Creating, reading, changing and deleting a workspace's Custom AIs. */
export class CustomAis extends Effect.Service<CustomAis>()("svc/custom-ai/CustomAis", {
  dependencies: [Credits.Default],
  effect: Effect.gen(function* () {
    const repo = yield* CustomAisRepo
    const ids = yield* Ids
    const jobs = yield* AskJobs
    const credits = yield* Credits
    const transactor = yield* Transactor

    const checked = (fields: CustomAiFields) =>
      Effect.all({
        name: fields.name === undefined ? Effect.succeed(undefined) : checkedName(fields.name),
        description: checkedText("description", fields.description, CUSTOM_AI_DESCRIPTION_MAX),
        instructions: checkedText("instructions", fields.instructions, CUSTOM_AI_INSTRUCTIONS_MAX)
      })

    /** Creates a Custom AI in the workspace; a workspace's first one becomes its default assistant. */
    const create = (workspaceId: string, input: CustomAiFields & { readonly name: string }) =>
      Effect.gen(function* () {
        const { name, description, instructions } = yield* checked(input)
        if ((yield* repo.count(workspaceId)) >= CUSTOM_AIS_PER_WORKSPACE_MAX) {
          return yield* new Conflict({
            message: `a workspace holds at most ${CUSTOM_AIS_PER_WORKSPACE_MAX} Custom AIs; delete one first`
          })
        }
        const at = yield* now
        const first = Option.isNone(yield* repo.findDefault(workspaceId))
        const customAi = new CustomAi({
          id: yield* ids.make("cai_"),
          workspaceId,
          name: name ?? input.name,
          kind: input.kind ?? "assistant",
          description: description ?? "",
          instructions: instructions ?? "",
          isDefault: input.isDefault ?? first,
          createdAt: at,
          updatedAt: at
        })
        yield* repo.insert(customAi)
        return customAi
      })

    /** One Custom AI of the workspace, or `NotFound`. */
    const get = (workspaceId: string, id: string) =>
      Effect.flatMap(
        repo.find(workspaceId, id),
        Option.match({ onNone: () => customAiNotFound(id), onSome: Effect.succeed })
      )

    /** The Custom AI named, or the workspace's default assistant when none is named. */
    const resolve = (workspaceId: string, id: string | undefined) =>
      id !== undefined
        ? get(workspaceId, id)
        : Effect.flatMap(
            repo.findDefault(workspaceId),
            Option.match({
              onNone: () =>
                new NotFound({
                  message:
                    "this workspace has no default assistant: pass customAIId, or create one with svc_create_custom_ai"
                }),
              onSome: Effect.succeed
            })
          )

    /** Changes the fields given; the others stay. `isDefault: true` takes the default from the former one. */
    const update = (workspaceId: string, id: string, fields: CustomAiFields) =>
      Effect.gen(function* () {
        const { name, description, instructions } = yield* checked(fields)
        if (fields.isDefault === false) {
          const current = yield* get(workspaceId, id)
          if (current.isDefault) {
            return yield* invalid(
              "isDefault",
              "a workspace keeps one default assistant: make another Custom AI the default instead"
            )
          }
        }
        const changes: CustomAiChanges = {
          ...(name === undefined ? {} : { name }),
          ...(fields.kind === undefined ? {} : { kind: fields.kind }),
          ...(description === undefined ? {} : { description }),
          ...(instructions === undefined ? {} : { instructions }),
          ...(fields.isDefault === undefined ? {} : { isDefault: fields.isDefault }),
          updatedAt: yield* now
        }
        return yield* Effect.flatMap(
          repo.update(workspaceId, id, changes),
          Option.match({ onNone: () => customAiNotFound(id), onSome: Effect.succeed })
        )
      })

    /**
     * Deletes a Custom AI with its knowledge and chats; refused while a store product sells it. Its answers still
     * running go with it and will never be given, so their charges go back in the same transaction.
     */
    const remove = (workspaceId: string, id: string) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const unfinished = yield* jobs.lockForCustomAi(workspaceId, id)
          const outcome = yield* repo.remove(workspaceId, id)
          if (outcome === "not_found") return yield* customAiNotFound(id)
          if (outcome === "sold") {
            return yield* new Conflict({
              message: `Custom AI ${id} is sold by a store product; delete or archive the product first`
            })
          }
          yield* Effect.forEach(unfinished, (job) => credits.release(job.accountId, job.messageId), { discard: true })
        })
      )

    const listPage = (workspaceId: string, page: PageRequest) => repo.listPage(workspaceId, page)

    return { create, get, find: repo.find, resolve, list: repo.list, listPage, update, remove } as const
  })
}) {}
