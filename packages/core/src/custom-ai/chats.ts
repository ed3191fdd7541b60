import { Context, Effect, Option, Schema } from "effect"
import { NotFound } from "../shared/errors.js"
import { Ids, Transactor } from "../shared/ports.js"
import type { CustomAi } from "./schema.js"

/** A source an answer drew on, as stored with the answer and shown to the caller. */
export const AnswerSource = Schema.Struct({
  sourceId: Schema.String,
  sourceTitle: Schema.String,
  url: Schema.NullOr(Schema.String)
})
export type AnswerSource = typeof AnswerSource.Type

/**
 * Where a message stands: a user message is stored `answered` (complete); an assistant message is `running` while
 * its job runs, then `answered` or `failed`.
 */
export type ChatMessageStatus = "answered" | "running" | "failed"

/** One message of a Custom AI chat. The text of an assistant message is a model's untrusted text: shown, never run. */
export interface ChatMessage {
  readonly id: string
  readonly chatId: string
  readonly role: "user" | "assistant"
  readonly status: ChatMessageStatus
  readonly text: string
  readonly sources: ReadonlyArray<AnswerSource>
  /** The model that answered; null for user messages and extractive answers. */
  readonly model: string | null
  /** Tenths of a credit the answer cost (0 until charged, and for extractive answers). */
  readonly chargedTenths: number
  /** Why the answer failed, written for the caller (with what to do next). */
  readonly error: string | null
  readonly createdAt: Date
  readonly answeredAt: Date | null
}

/** A chat of a workspace with one of its Custom AIs. */
export interface CustomAiChat {
  readonly id: string
  readonly workspaceId: string
  readonly customAiId: string
  readonly title: string
}

/** How a finished assistant message ends. */
export type MessageOutcome =
  | {
      readonly status: "answered"
      readonly text: string
      readonly sources: ReadonlyArray<AnswerSource>
      readonly model: string | null
      readonly chargedTenths: number
      readonly at: Date
    }
  | { readonly status: "failed"; readonly error: string; readonly at: Date }

/** Stored Custom AI chats and their messages (the `chats` table `svc_list_chats` lists). */
export class CustomAiChatsRepo extends Context.Tag("svc/custom-ai/CustomAiChatsRepo")<
  CustomAiChatsRepo,
  {
    /** A chat of the workspace (never another workspace's) that is with a Custom AI. */
    readonly findChat: (workspaceId: string, chatId: string) => Effect.Effect<Option.Option<CustomAiChat>>
    readonly insertChat: (chat: CustomAiChat, at: Date) => Effect.Effect<void>
    /** Adds a message and marks its chat active at its time. */
    readonly insertMessage: (message: ChatMessage) => Effect.Effect<void>
    readonly findMessage: (messageId: string) => Effect.Effect<Option.Option<ChatMessage>>
    /** The chat's newest assistant message. */
    readonly latestAnswer: (chatId: string) => Effect.Effect<Option.Option<ChatMessage>>
    /**
     * The chat's last `limit` user messages and answered assistant messages written before `beforeMessageId`,
     * oldest first.
     */
    readonly turnsBefore: (
      chatId: string,
      beforeMessageId: string,
      limit: number
    ) => Effect.Effect<ReadonlyArray<ChatMessage>>
    /** Ends a `running` assistant message; false when it was not running (already ended). */
    readonly finishMessage: (messageId: string, outcome: MessageOutcome) => Effect.Effect<boolean>
    /** The chat's last `limit` messages of either role, oldest first. */
    readonly recentMessages: (chatId: string, limit: number) => Effect.Effect<ReadonlyArray<ChatMessage>>
  }
>() {}

/** The longest question, in characters. */
export const ASK_MESSAGE_MAX = 8_000
/** The longest chat title, in characters: a new chat is titled from its first question. */
export const CHAT_TITLE_MAX = 80
/** Messages `CustomAiChats.read` answers at most: the latest ones. */
export const CHAT_READ_MESSAGES_MAX = 100

/** A chat title from the first question: its words on one line, cut at a word within {@link CHAT_TITLE_MAX}. */
export const chatTitleOf = (message: string): string => {
  const line = message.replace(/\s+/g, " ").trim()
  if (line.length <= CHAT_TITLE_MAX) return line
  const cut = line.slice(0, CHAT_TITLE_MAX - 1)
  const space = cut.lastIndexOf(" ")
  return `${(space > CHAT_TITLE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}

const chatNotFound = (chatId: string) =>
  new NotFound({
    message: `no chat ${chatId} with this Custom AI in this workspace; list chats with svc_list_chats, or leave chatId out to start one`
  })

/** Opening Custom AI chats and storing their messages. */
export class CustomAiChats extends Effect.Service<CustomAiChats>()("svc/custom-ai/CustomAiChats", {
  effect: Effect.gen(function* () {
    const repo = yield* CustomAiChatsRepo
    const ids = yield* Ids
    const transactor = yield* Transactor

    /** The chat `chatId` names (it must be with `customAi`), or a new one titled from `question`. */
    const open = (customAi: CustomAi, chatId: string | undefined, question: string, at: Date) =>
      Effect.gen(function* () {
        if (chatId !== undefined) {
          const found = yield* repo.findChat(customAi.workspaceId, chatId)
          if (Option.isNone(found) || found.value.customAiId !== customAi.id) return yield* chatNotFound(chatId)
          return found.value
        }
        const chat: CustomAiChat = {
          id: yield* ids.make("chat_"),
          workspaceId: customAi.workspaceId,
          customAiId: customAi.id,
          title: chatTitleOf(question)
        }
        yield* repo.insertChat(chat, at)
        return chat
      })

    /** Opens (or continues) the chat and stores the user's question in it, in one transaction. */
    const postQuestion = (customAi: CustomAi, chatId: string | undefined, question: string, at: Date) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const chat = yield* open(customAi, chatId, question, at)
          const message: ChatMessage = {
            id: yield* ids.make("msg_"),
            chatId: chat.id,
            role: "user",
            status: "answered",
            text: question,
            sources: [],
            model: null,
            chargedTenths: 0,
            error: null,
            createdAt: at,
            answeredAt: at
          }
          yield* repo.insertMessage(message)
          return { chat, question: message }
        })
      )

    /** A chat of the workspace, or `NotFound`. */
    const find = (workspaceId: string, chatId: string) =>
      Effect.flatMap(repo.findChat(workspaceId, chatId), (found) =>
        Option.isSome(found)
          ? Effect.succeed(found.value)
          : Effect.fail(
              new NotFound({
                message: `no Custom AI chat ${chatId} in this workspace; list chats with svc_list_chats`
              })
            )
      )

    /** A chat of the workspace with its latest {@link CHAT_READ_MESSAGES_MAX} messages, oldest first; or `NotFound`. */
    const read = (workspaceId: string, chatId: string) =>
      Effect.gen(function* () {
        const chat = yield* find(workspaceId, chatId)
        return { chat, messages: yield* repo.recentMessages(chat.id, CHAT_READ_MESSAGES_MAX) }
      })

    return { postQuestion, find, read } as const
  })
}) {}
