import { Schema } from "effect"
import { LIBRARY_LIMITS } from "./limits.js"

/** The websearch-syntax query field the search tools take (empty allowed when `more` says what it does). */
export const searchQueryField = (more = "") => {
  const bounded = Schema.String.pipe(Schema.maxLength(LIBRARY_LIMITS.queryCharacters))
  return (more === "" ? bounded.pipe(Schema.minLength(1)) : bounded).annotations({
    description: `Words to find (web-search syntax): all plain words, any form; "a phrase"; a or b; -word excludes.${more}`
  })
}
