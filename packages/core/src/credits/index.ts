/** AI credits: the `Credits` service (balance, charge, release, grant), the cost table and the ledger's port. */
export {
  CUSTOM_AI_MESSAGE_COST,
  creditsText,
  creditsOf,
  formatCredits,
  MONTHLY_CREDITS,
  periodOf,
  RESEARCH_TOOL_COSTS,
  refillsOn
} from "./costs.js"
export { CreditsRepo } from "./ports.js"
export type {
  CreditBalance,
  CreditBalanceRow,
  CreditCharge,
  CreditEntry,
  CreditEntryKind,
  PendingCreditGrant
} from "./schema.js"
export { Credits } from "./service.js"
