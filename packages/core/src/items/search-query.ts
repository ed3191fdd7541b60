import { Schema } from "effect"
import { LIBRARY_LIMITS } from "./limits.js"

/** The websearch-syntax query field the search tools take (empty allowed when `more` says what it does). */
export const searchQueryField = (more = "") => {
  const bounded = Schema.String.pipe(Schema.maxLength(LIBRARY_LIMITS.queryCharacters))
  return (more === "" ? bounded.pipe(Schema.minLength(1)) : bounded).annotations({
    description: `Words to find, up to ${LIBRARY_LIMITS.queryCharacters} characters, in web-search syntax: plain words must all appear (any form: "launching" finds "launch"), "quoted phrase" for words in that order, or between alternatives, -word to exclude.${more}`
  })
}
