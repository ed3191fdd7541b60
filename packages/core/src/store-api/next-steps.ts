import type { NextStepWords } from "../shared/next-step.js"

/** Next steps as the store API says them: the route that lists or changes what the caller needs. */
export const storeApiNextSteps: NextStepWords = {
  ListProducts: () => "GET /products lists them",
  ListCustomAis: () => "GET /custom-ais lists them",
  ListCohorts: (step) =>
    step.productId === undefined
      ? "GET /products/<id>/cohorts lists a product's cohorts"
      : `GET /products/${step.productId}/cohorts lists them`,
  ListForms: () => "GET /quizzes lists them",
  ListEventTypes: () => "GET /webhook-events lists them",
  ListPaidQuestions: () => "GET /paid-questions lists them",
  ListReviews: () => "GET /reviews lists them",
  ListLessonQuestions: () => "GET /lesson-questions lists them",
  ChangeProduct: () => "change it with PATCH /products/<id>"
}
