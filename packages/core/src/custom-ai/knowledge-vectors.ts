/**
 * Embeddings of a Custom AI's knowledge, when an embedding model is configured and the database stores vectors:
 * chunks are embedded when written, the ones missing (the provider was down) are filled in at the next search, and
 * each search query is embedded to rank by meaning beside full-text search. Nothing here ever fails a caller: a
 * provider or vector failure leaves full-text search as it was.
 */
import { Data, Effect, Option } from "effect"
import { withSpan } from "../shared/spans.js"
import { ChatModel, type ModelRefused, type ModelUnreachable } from "./chat-model.js"
import { type ChunkText, KnowledgeRepo, type QueryVector } from "./knowledge-ports.js"

/** The most texts one embedding request carries. */
export const EMBEDDING_BATCH = 64
// Requests made per source written: a whole source at its largest (200,000 characters, ~220 chunks) fits.
const BATCHES_PER_SOURCE = 4

// The answer must hold a vector for every text, all of one length, all finite: anything else is not stored.
class UnusableEmbeddings extends Data.TaggedError("UnusableEmbeddings")<{ readonly message: string }> {}

type Vectors = ReadonlyArray<ReadonlyArray<number>>
type EmbedFailure = ModelUnreachable | ModelRefused | UnusableEmbeddings

const usable = (vectors: Vectors, count: number) => {
  const length = vectors[0]?.length ?? 0
  return (
    vectors.length === count &&
    length > 0 &&
    vectors.every((vector) => vector.length === length && vector.every(Number.isFinite))
  )
}

const reported = (what: string) => (error: EmbedFailure) =>
  Effect.logWarning(`knowledge embeddings: ${what}: ${error.message}`)

/** The embedding half of `CustomAiKnowledge`: filling in chunks' embeddings and embedding queries. */
export const makeKnowledgeVectors = Effect.gen(function* () {
  const repo = yield* KnowledgeRepo
  const chatModel = yield* ChatModel
  const embedder = Option.all({
    model: Option.flatMap(chatModel.description, (description) => description.embeddingModel),
    call: chatModel.embed
  }).pipe(
    Option.map(({ model, call }) => ({
      model,
      embed: (texts: ReadonlyArray<string>): Effect.Effect<Vectors, EmbedFailure> =>
        Effect.flatMap(call(texts), (vectors) =>
          usable(vectors, texts.length)
            ? Effect.succeed(vectors)
            : Effect.fail(
                new UnusableEmbeddings({
                  message: "the model answered vectors that cannot be used (count, length or values)"
                })
              )
        )
    }))
  )

  const store = (model: string, chunks: ReadonlyArray<ChunkText>, vectors: Vectors) =>
    chunks.length === 0
      ? Effect.succeed(0)
      : repo.saveEmbeddings(
          model,
          chunks.map((chunk, index) => ({ ...chunk, embedding: vectors[index] ?? [] }))
        )

  /**
   * Embeds the Custom AI's chunks that have none by the configured model yet, after `sources` sources were written;
   * a failure is logged, never raised.
   */
  const fillIn = (workspaceId: string, customAiId: string, sources: number): Effect.Effect<void> =>
    Option.match(embedder, {
      onNone: () => Effect.void,
      onSome: ({ model, embed }) =>
        Effect.gen(function* () {
          if (!(yield* repo.vectorsReady)) return
          for (let batch = 0; batch < BATCHES_PER_SOURCE * sources; batch++) {
            const chunks = yield* repo.unembedded(workspaceId, customAiId, model, EMBEDDING_BATCH)
            if (chunks.length === 0) return
            const stored = yield* store(model, chunks, yield* embed(chunks.map((chunk) => chunk.text)))
            // None stored (the chunks changed meanwhile, or the write failed): leave the rest to a later search.
            if (chunks.length < EMBEDDING_BATCH || stored === 0) return
          }
        }).pipe(
          Effect.catchAll(reported("could not embed new chunks; the next search fills them in")),
          withSpan("CustomAiKnowledge.embedChunks")
        )
    })

  /**
   * The query's embedding: none without a model, without vectors or when the provider fails. The same request
   * carries up to {@link EMBEDDING_BATCH} − 1 chunks still missing an embedding, so a backfill costs no extra call.
   */
  const queryVector = (
    workspaceId: string,
    customAiId: string,
    query: string
  ): Effect.Effect<Option.Option<QueryVector>> =>
    Option.match(embedder, {
      onNone: () => Effect.succeedNone,
      onSome: ({ model, embed }) =>
        Effect.gen(function* () {
          if (!(yield* repo.vectorsReady)) return Option.none<QueryVector>()
          const missing = yield* repo.unembedded(workspaceId, customAiId, model, EMBEDDING_BATCH - 1)
          const texts = [query, ...missing.map((chunk) => chunk.text)]
          // A refusal for good may come from one of the chunks: the query alone still gets its vector.
          const vectors = yield* embed(texts).pipe(
            Effect.catchTag("ModelRefused", (refused) =>
              missing.length === 0
                ? Effect.fail(refused)
                : Effect.zipRight(reported("could not embed missing chunks")(refused), embed([query]))
            )
          )
          if (vectors.length === texts.length) yield* store(model, missing, vectors.slice(1))
          return Option.some<QueryVector>({ model, embedding: vectors[0] ?? [] })
        }).pipe(
          Effect.catchAll((error) => Effect.as(reported("searching by words only")(error), Option.none<QueryVector>())),
          withSpan("CustomAiKnowledge.embedQuery")
        )
    })

  return { fillIn, queryVector } as const
})
