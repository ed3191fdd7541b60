/**
 * The built-in test processor: it takes the card processors' well-known test numbers and nothing else, moves no
 * money, and answers at once. A store whose `card_processor` is `connected` without a live processor sells through it,
 * and every such sale is marked `test`.
 */

/** A card as the checkout form sends it. */
export interface TestCard {
  readonly number: string
  /** `MM/YY` or `MM/YYYY`. */
  readonly expiry: string
  readonly cvc: string
}

/** What the test processor did with a card. */
export type TestCardOutcome =
  | {
      readonly status: "succeeded"
      readonly brand: string
      readonly last4: string
    }
  | { readonly status: "declined"; readonly message: string }
  | { readonly status: "requires_authentication"; readonly message: string }

/** A card field the processor could not read, with the buyer's words for it. */
export interface CardFieldError {
  readonly field: "card_number" | "card_expiry" | "card_cvc"
  readonly message: string
}

interface TestNumber {
  readonly brand: string
  readonly outcome: "succeeded" | "declined" | "insufficient_funds" | "requires_authentication"
}

/** The test numbers it knows, as card processors publish them. */
export const TEST_CARDS: Readonly<Record<string, TestNumber>> = {
  "4242424242424242": { brand: "Visa", outcome: "succeeded" },
  "5555555555554444": { brand: "Mastercard", outcome: "succeeded" },
  "378282246310005": { brand: "American Express", outcome: "succeeded" },
  "4000000000000002": { brand: "Visa", outcome: "declined" },
  "4000000000009995": { brand: "Visa", outcome: "insufficient_funds" },
  "4000002500003155": { brand: "Visa", outcome: "requires_authentication" }
}

/** The test card that always succeeds, which the checkout page offers. */
export const SUCCEEDING_TEST_CARD = "4242 4242 4242 4242"

const luhn = (digits: string) => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

/** The card's fields as the processor reads them, or what is wrong with each. */
export const readTestCard = (card: TestCard, now: Date): ReadonlyArray<CardFieldError> => {
  const errors: Array<CardFieldError> = []
  const digits = card.number.replace(/[\s-]/g, "")
  if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) {
    errors.push({
      field: "card_number",
      message: "Enter the card number as printed on the card."
    })
  }
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry)
  const month = expiry === null ? 0 : Number(expiry[1])
  const year = expiry === null ? 0 : Number(expiry[2]?.length === 2 ? `20${expiry[2]}` : expiry[2])
  if (expiry === null || month < 1 || month > 12) {
    errors.push({
      field: "card_expiry",
      message: "Enter the expiry date as MM/YY."
    })
  } else if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) {
    errors.push({ field: "card_expiry", message: "This card has expired." })
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) {
    errors.push({
      field: "card_cvc",
      message: "Enter the 3 or 4 digit security code."
    })
  }
  return errors
}

/**
 * Charges a readable card (see {@link readTestCard}): a test number does what it is known to do; any other number is
 * declined, as a processor in test mode declines a real card. `authenticated` says the buyer passed the test
 * authentication step, which the authentication test number asks for.
 */
export const chargeTestCard = (card: TestCard, authenticated: boolean): TestCardOutcome => {
  const digits = card.number.replace(/[\s-]/g, "")
  const known = TEST_CARDS[digits]
  if (known === undefined) {
    return {
      status: "declined",
      message: `This store is in test mode and takes test cards only, such as ${SUCCEEDING_TEST_CARD}. No money was taken.`
    }
  }
  switch (known.outcome) {
    case "succeeded":
      return {
        status: "succeeded",
        brand: known.brand,
        last4: digits.slice(-4)
      }
    case "declined":
      return {
        status: "declined",
        message: "Your card was declined. No money was taken; try another card."
      }
    case "insufficient_funds":
      return {
        status: "declined",
        message: "Your card has insufficient funds. No money was taken; try another card."
      }
    case "requires_authentication":
      return authenticated
        ? { status: "succeeded", brand: known.brand, last4: digits.slice(-4) }
        : {
            status: "requires_authentication",
            message: "Your bank asks you to confirm this payment."
          }
  }
}
