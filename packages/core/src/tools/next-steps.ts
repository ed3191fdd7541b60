import type { NextStepWords } from "../shared/next-step.js"

/**
 * Next steps as the tools say them: the tool (and action) that gives what the caller needs. The store tools reach
 * products through their Custom AI, so a product's id is read from its Custom AI's product; event types have no
 * tool, so that step names the store API's route.
 */
export const toolNextSteps: NextStepWords = {
  ListProducts: () => "svc_get_custom_ai_product and svc_get_bundle answer product ids",
  ListCustomAis: () => "svc_list_custom_ai lists them",
  ListCohorts: (step) =>
    step.productId === undefined
      ? "svc_manage_cohorts with action list and a productId lists a product's cohorts"
      : `svc_manage_cohorts with action list and productId ${step.productId} lists them`,
  ListForms: () => "svc_manage_forms with action list lists them",
  ListEventTypes: () => "GET /store-app/v1/webhook-events lists them",
  ListPaidQuestions: () => "svc_manage_sales with action list_questions lists them",
  ListReviews: () => "svc_manage_sales with action list_reviews lists them",
  ListLessonQuestions: () => "svc_manage_lesson_questions with action list lists them",
  ChangeProduct: () => "change it with svc_save_custom_ai_product"
}
