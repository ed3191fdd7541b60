/** The longest tag name. */
export const TAG_NAME_MAX = 50
/** The most tags one call adds. */
export const TAGS_PER_CALL_MAX = 20
