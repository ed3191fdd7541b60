import { AnswerSource, type ChatMessage, CustomAiChatsRepo } from "@svc/core/custom-ai"
import { Effect, Layer, Option, Schema } from "effect"
import { LeanSql } from "../lean.js"

interface MessageRow {
  readonly id: string
  readonly chat_id: string
  readonly role: ChatMessage["role"]
  readonly status: ChatMessage["status"]
  readonly text: string
  readonly sources: unknown
  readonly model: string | null
  readonly charged_tenths: number
  readonly error: string | null
  readonly created_at: Date
  readonly answered_at: Date | null
}

const decodeSources = Schema.decodeUnknownSync(Schema.Array(AnswerSource))

const toMessage = (row: MessageRow): ChatMessage => ({
  id: row.id,
  chatId: row.chat_id,
  role: row.role,
  status: row.status,
  text: row.text,
  sources: decodeSources(row.sources),
  model: row.model,
  chargedTenths: row.charged_tenths,
  error: row.error,
  createdAt: row.created_at,
  answeredAt: row.answered_at
})

const firstMessage = (rows: ReadonlyArray<MessageRow>) => Option.map(Option.fromNullable(rows[0]), toMessage)

/** `CustomAiChatsRepo` over SQL: chats in the workspace's `chats` table, messages in `chat_messages` by `seq`. */
export const CustomAiChatsRepoSql = Layer.effect(
  CustomAiChatsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      findChat: (workspaceId, chatId) =>
        lean<{
          readonly id: string
          readonly workspace_id: string
          readonly custom_ai_id: string
          readonly title: string
        }>`
          SELECT id, workspace_id, custom_ai_id, title FROM chats
          WHERE workspace_id = ${workspaceId} AND id = ${chatId} AND custom_ai_id IS NOT NULL`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              id: row.id,
              workspaceId: row.workspace_id,
              customAiId: row.custom_ai_id,
              title: row.title
            }))
          ),
          Effect.orDie
        ),
      insertChat: (chat, at) =>
        lean`INSERT INTO chats (id, workspace_id, title, custom_ai_id, created_at, updated_at)
             VALUES (${chat.id}, ${chat.workspaceId}, ${chat.title}, ${chat.customAiId}, ${at}, ${at})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      // One statement: the message and its chat's activity time are written together.
      insertMessage: (m) =>
        lean`WITH added AS (
               INSERT INTO chat_messages (id, chat_id, role, status, text, sources, model, charged_tenths, error,
                                          created_at, answered_at)
               VALUES (${m.id}, ${m.chatId}, ${m.role}, ${m.status}, ${m.text}, ${JSON.stringify(m.sources)}::jsonb,
                       ${m.model}, ${m.chargedTenths}::int, ${m.error}, ${m.createdAt}, ${m.answeredAt}::timestamptz)
               RETURNING chat_id, created_at)
             UPDATE chats SET updated_at = GREATEST(chats.updated_at, added.created_at)
             FROM added WHERE chats.id = added.chat_id`.pipe(Effect.asVoid, Effect.orDie),
      findMessage: (messageId) =>
        lean<MessageRow>`SELECT id, chat_id, role, status, text, sources, model, charged_tenths, error, created_at,
                                answered_at
                         FROM chat_messages WHERE id = ${messageId}`.pipe(Effect.map(firstMessage), Effect.orDie),
      latestAnswer: (chatId) =>
        lean<MessageRow>`SELECT id, chat_id, role, status, text, sources, model, charged_tenths, error, created_at,
                                answered_at
                         FROM chat_messages WHERE chat_id = ${chatId} AND role = 'assistant'
                         ORDER BY seq DESC LIMIT 1`.pipe(Effect.map(firstMessage), Effect.orDie),
      turnsBefore: (chatId, beforeMessageId, limit) =>
        lean<MessageRow>`SELECT * FROM (
                           SELECT m.id, m.chat_id, m.role, m.status, m.text, m.sources, m.model, m.charged_tenths,
                                  m.error, m.created_at, m.answered_at, m.seq
                           FROM chat_messages m
                           WHERE m.chat_id = ${chatId}
                             AND m.seq < (SELECT b.seq FROM chat_messages b WHERE b.id = ${beforeMessageId})
                             AND (m.role = 'user' OR m.status = 'answered')
                           ORDER BY m.seq DESC LIMIT ${limit}::int) AS recent
                         ORDER BY seq`.pipe(
          Effect.map((rows) => rows.map(toMessage)),
          Effect.orDie
        ),
      finishMessage: (messageId, outcome) => {
        const answered = outcome.status === "answered" ? outcome : undefined
        // The answer's time is the chat's latest activity too.
        return lean<{ readonly id: string }>`
          WITH done AS (
          UPDATE chat_messages SET status = ${outcome.status},
                 text = ${answered?.text ?? ""},
                 sources = ${JSON.stringify(answered?.sources ?? [])}::jsonb,
                 model = ${answered?.model ?? null},
                 charged_tenths = ${answered?.chargedTenths ?? 0}::int,
                 error = ${outcome.status === "failed" ? outcome.error : null},
                 answered_at = ${outcome.at}
          WHERE id = ${messageId} AND status = 'running'
          RETURNING id, chat_id, answered_at)
          UPDATE chats SET updated_at = GREATEST(chats.updated_at, done.answered_at)
          FROM done WHERE chats.id = done.chat_id
          RETURNING done.id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
      },
      recentMessages: (chatId, limit) =>
        lean<MessageRow>`SELECT * FROM (
                           SELECT id, chat_id, role, status, text, sources, model, charged_tenths, error, created_at,
                                  answered_at, seq
                           FROM chat_messages WHERE chat_id = ${chatId}
                           ORDER BY seq DESC LIMIT ${limit}::int) AS recent
                         ORDER BY seq`.pipe(
          Effect.map((rows) => rows.map(toMessage)),
          Effect.orDie
        )
    }
  })
)
