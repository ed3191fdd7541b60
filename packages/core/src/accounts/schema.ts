import { Schema } from "effect"

/** Plans, cheapest first. Starter or above unlocks the store, scheduling and webhooks. */
export const Plan = Schema.Literal("free", "starter", "pro")
export type Plan = typeof Plan.Type

/** Whether `plan` is at least `floor`. */
export const planAtLeast = (plan: Plan, floor: Plan): boolean =>
  Plan.literals.indexOf(plan) >= Plan.literals.indexOf(floor)

/** An email address, trimmed and lower-cased so one person is one account. */
export const Email = Schema.Trim.pipe(
  Schema.compose(Schema.Lowercase),
  Schema.maxLength(254),
  Schema.pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: () => "must be an email address like name@example.com" })
).annotations({ description: "An email address." })

/** A person who signs in. The password hash never leaves storage. */
export interface Account {
  readonly id: string
  readonly email: string
  readonly name: string
  readonly plan: Plan
  readonly createdAt: Date
}

/** An account together with its stored password hash, for sign-in only. */
export interface AccountWithSecret extends Account {
  readonly passwordHash: string
}
