import foundation from "./0001_foundation.js"

/** Every migration, by `<id>_<name>`, in the order they apply. */
export const migrations = {
  "0001_foundation": foundation
}
