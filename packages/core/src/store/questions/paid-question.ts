/** The longest question a buyer may ask at checkout. */
export const QUESTION_MAX = 4_000
/** The longest answer a seller may give. */
export const ANSWER_MAX = 20_000

/** Whether a question still waits for its answer. */
export type PaidQuestionStatus = "open" | "answered"

/**
 * A question a buyer paid to ask: written with its sale (the sale's transaction), answered once or more by the
 * seller. The buyer reads it, and the answer, at its answer page, whose link holds `key` so only they can.
 */
export interface PaidQuestion {
  readonly id: string
  readonly workspaceId: string
  readonly productId: string
  readonly productTitle: string
  readonly saleId: string
  readonly buyerEmail: string
  readonly buyerName: string | null
  readonly text: string
  readonly amountCents: number
  readonly currency: string
  /** Bought through the built-in test processor: no money moved. */
  readonly test: boolean
  /** The secret of the buyer's answer page link. */
  readonly key: string
  readonly answerDueAt: Date
  readonly answer: string | null
  readonly answeredAt: Date | null
  readonly createdAt: Date
}

/** `open` until the seller answers. */
export const questionStatus = (question: PaidQuestion): PaidQuestionStatus =>
  question.answer === null ? "open" : "answered"

/** The buyer's answer page: the question, and the answer once given. */
export const answerUrlOf = (publicBase: string, question: Pick<PaidQuestion, "id" | "key">) =>
  `${publicBase}/q/${encodeURIComponent(question.id)}?k=${encodeURIComponent(question.key)}`
