// The store's refusals are domain failures every face maps (`shared/failures.ts`), so they live with the others.
export { BadListRequest, StoreAccessDenied } from "../shared/errors.js"
