/** Custom AIs: the `CustomAis` service, its repository and schemas, and the language-model port. */
export {
  ChatModel,
  type ModelAnswer,
  type ModelDescription,
  type ModelPrompt,
  ModelRefused,
  type ModelTurn,
  ModelUnreachable
} from "./chat-model.js"
export { type CustomAiChanges, CustomAisRepo } from "./ports.js"
export {
  CUSTOM_AI_DESCRIPTION_MAX,
  CUSTOM_AI_INSTRUCTIONS_MAX,
  CUSTOM_AI_NAME_MAX,
  CUSTOM_AIS_PER_WORKSPACE_MAX,
  CustomAi,
  CustomAiKind
} from "./schema.js"
export { type CustomAiFields, CustomAis } from "./service.js"
export { chunkText } from "./chunking.js"
export { type ExtractiveAnswer, extractiveAnswer, NO_MODEL_SENTENCE, NOTHING_FOUND_SENTENCE } from "./extractive.js"
export { CustomAiKnowledge, type SourceInput, type SourceUpdate } from "./knowledge.js"
export {
  type ChunkEmbedding,
  type ChunkText,
  DocumentText,
  DocumentUnreadable,
  type FetchedPage,
  KnowledgeRepo,
  PageFetcher,
  PageFetchFailed,
  type QueryVector,
  type ReadablePage
} from "./knowledge-ports.js"
export {
  type IndexedContent,
  type KnowledgePassage,
  type KnowledgeSource,
  NOTE_DELETED,
  SOURCE_FILE_BYTES_MAX,
  SOURCE_TEXT_MAX,
  SOURCE_TITLE_MAX,
  SOURCE_URL_MAX,
  SOURCES_PER_CUSTOM_AI_MAX
} from "./knowledge-schema.js"
export { knowledgeTools } from "./knowledge-tools.js"
export {
  ASK_MAX_ATTEMPTS,
  type AskClaim,
  type AskJob,
  AskJobs,
  type AskJobState,
  type AskMode,
  AskSettings,
  type AskSettingsShape,
  askRetryDelayMs,
  type ClaimedAskJob
} from "./ask-jobs.js"
export { AskJobRunner, type Attendance } from "./ask-runner.js"
export { askTools } from "./ask-tools.js"
export {
  AskWorkerLive,
  type AskWorkerOptions,
  claimDueAskJobs,
  DEFAULT_ASK_WORKER,
  runAskWorker,
  runDueAskJobs
} from "./ask-worker.js"
export { type AskAnswer, type AskInput, CustomAiAsking } from "./asking.js"
export {
  ASK_MESSAGE_MAX,
  AnswerSource,
  CHAT_READ_MESSAGES_MAX,
  CHAT_TITLE_MAX,
  type ChatMessage,
  type ChatMessageStatus,
  chatTitleOf,
  type CustomAiChat,
  CustomAiChats,
  CustomAiChatsRepo,
  type MessageOutcome
} from "./chats.js"
export { buildPrompt, PROMPT_PASSAGES_MAX, PROMPT_TURNS_MAX, sourcesOf } from "./prompt.js"
