/**
 * The store: products, sales, customers, cohorts, feeds, tags and the email list, with their services, repositories
 * and schemas.
 */
export type { AccessHow, AccessState, Customer, ProductAccess } from "./sales/access.js"
export {
  AccessLine,
  ChecklistItemRow,
  CustomerMatch,
  CustomerRow,
  ProductAnswer,
  ProductRow,
  ProductSummary,
  SaleRow
} from "./api-rows.js"
export { PageOf } from "../shared/list-wire.js"
export {
  BUNDLE_MAX_PRODUCTS,
  BUNDLE_MIN_PRODUCTS,
  type BundleChecklistItem,
  bundleChecklist,
  bundledProductJson
} from "./catalog/bundle.js"
export type { BundleAccessLine } from "./sales/bundle-access.js"
export { type BundleSave, type BundleView, StoreBundles } from "./catalog/bundles.js"
export { resolveStoreCaller, type StoreCaller } from "../auth/store-caller.js"
export { StoreCatalog } from "./catalog/catalog.js"
export {
  bundleAnswerJson,
  identityJson,
  productAnswerJson,
  productApiAnswer,
  productJson,
  productPageJson,
  productSummaryJson,
  sellableCustomAiJson
} from "./catalog/product-json.js"
export type { ListedProduct, ProductView, SellableCustomAi, StoreIdentity } from "./catalog/product-view.js"
export { readProductListQuery } from "./catalog/product-query.js"
export type { Cohort, CohortMember, CohortMove, CohortMoveRequest, CohortWithMembers } from "./cohorts/cohort.js"
export { cohortAnswerJson, cohortJson, cohortListJson, cohortMoveJson } from "./cohorts/cohort-json.js"
export { type CohortChanges, type NewCohort, StoreCohorts } from "./cohorts/cohorts.js"
export { StoreCustomers } from "./customers/customers.js"
export {
  DISCOUNT_CODE_MAX,
  DISCOUNT_CODE_MIN,
  DISCOUNT_CODE_PATTERN,
  type DiscountCode,
  discountCodeKey,
  type DiscountKind,
  type DiscountRefusal,
  discountRefusal,
  discountRefusalMessage,
  priceAfterDiscount
} from "./checkout/discount-code.js"
export {
  type DiscountCodeContext,
  discountCheckoutUrl,
  discountCodeApiAnswer,
  discountCodeCreatedJson,
  discountCodeJson,
  discountCodePageJson
} from "./checkout/discount-code-json.js"
export { type DiscountCodeListQuery, readDiscountCodeListQuery } from "./checkout/discount-code-query.js"
export {
  DISCOUNT_MAX_USES_LIMIT,
  type NewDiscountCode,
  RANDOM_CODE_ALPHABET,
  RANDOM_CODE_LENGTH,
  StoreDiscountCodes
} from "./checkout/discount-codes.js"
export {
  DiscountCodeAnswer,
  DiscountCodeCreated,
  DiscountCodeRow,
  DiscountCodesApiGroup,
  NewDiscountCodeBody,
  newDiscountCodeOf
} from "./checkout/discount-codes-api.js"
export {
  type HostedCheckout,
  type ProcessorAccount,
  type ProcessorStatus,
  processorStatusOf,
  STRIPE_CONNECT_WEBHOOK_PATH,
  stripeWebhookPath
} from "./checkout/hosted-checkout.js"
export {
  DiscountCodesRepo,
  HostedCheckoutsRepo,
  ProcessorAccountsRepo,
  SubscriptionsRepo
} from "./checkout/ports.js"
export {
  CardProcessor,
  type CardProcessorShape,
  type HostedPayment,
  type HostedPaymentRequest,
  type PaidInvoice,
  type ProcessorEvent,
  ProcessorFailure,
  type ProcessorKey,
  ProcessorSignatureRefused,
  type SignedProcessorEvent
} from "./checkout/processor.js"
export { type ConnectPlatform, ProcessorPlatform } from "./checkout/processor-platform.js"
export { type EventResult, ProcessorEvents } from "./checkout/processor-events.js"
export { LiveCharges } from "./checkout/live-charges.js"
export { type ProcessorKeys, ProcessorSetup, STRIPE_CONNECT_RETURN_PATH } from "./checkout/processor-setup.js"
export type { HeldSubscription, Subscription } from "./checkout/subscription.js"
export {
  claimDueRenewals,
  DEFAULT_RENEWAL_WORKER,
  RenewalWorkerLive,
  type RenewalWorkerOptions,
  renewHeld,
  runDueRenewals
} from "./checkout/renewal-worker.js"
export {
  type AppliedCode,
  ATTRIBUTION_MAX,
  BUYER_NAME_MAX,
  type CheckoutErrors,
  type CheckoutOffer,
  type CheckoutOutcome,
  type CheckoutRequest,
  cleanAttribution,
  StoreCheckout,
  type Unavailable
} from "./checkout/checkout.js"
export {
  addMonths,
  dueNowCents,
  type PriceChoice,
  type PriceOption,
  paidUntilOf,
  priceOptions
} from "./checkout/price-options.js"
export {
  chargeTestCard,
  readTestCard,
  SUCCEEDING_TEST_CARD,
  TEST_CARDS,
  type TestCard,
  type TestCardOutcome
} from "./checkout/test-processor.js"
export type { AddCustomerOutcome, AddCustomerRejection } from "./sales/free-grant.js"
export type {
  CustomerListQuery,
  CustomerProductLine,
  CustomerRecord,
  CustomerTarget,
  NewCustomer,
  RemoveAccessOutcome
} from "./customers/customer-record.js"
export {
  accessEmailSentJson,
  addCustomerJson,
  customerJson,
  customerMatchJson,
  customerPageJson,
  customerProductJson,
  removeAccessJson
} from "./customers/customer-json.js"
export { readCustomerListQuery } from "./customers/customer-query.js"
export { type ContentLink, ContentLinksRepo, StoreContentLinks } from "./catalog/content-links.js"
export {
  ContactSource,
  ContactStatus,
  ContactTaggedRow,
  EmailSignupRow,
  type EmailContact,
  EmailContactRow,
  EmailTagRow,
  TagRef
} from "./email-list/email-contact.js"
export {
  type AddContactInput,
  CONTACT_NAME_MAX,
  type ContactChanges,
  StoreEmailList,
  StoreMailingList
} from "./email-list/email-contacts.js"
export { EmailListApiGroup } from "./email-list/email-list-api.js"
export type {
  ContactAddition,
  ContactCounts,
  ContactRemoval,
  ContactView,
  ListedTag,
  TagRemoval
} from "./email-list/contact-view.js"
export {
  contactAdditionApiAnswer,
  contactApiAnswer,
  contactJson,
  contactPageJson,
  contactRemovalApiAnswer,
  tagJson,
  tagPageJson,
  tagRefJson,
  tagRemovalApiAnswer
} from "./email-list/email-list-json.js"
export {
  type ContactListQuery,
  readContactListQuery,
  readTagListQuery,
  type TagListQuery
} from "./email-list/email-list-query.js"
export { EmailSequencesApiGroup } from "./sequences/api.js"
export { FormCompletedRow, FormsApiGroup } from "./forms/api.js"
export { STORE_CURRENCY } from "./sales/sale.js"
export { CONFIRM_LINK_DAYS, type SignupInput, type SignupOutcome, StoreSignups } from "./email-list/signups.js"
export { FormsRepo, type FormWithCounts } from "./forms/ports.js"
export { type QuestionInput, readAnswers, readQuestions } from "./forms/questions.js"
export {
  type Answer,
  ApplicationRow,
  ApplicationStatus,
  CHOICE_MAX,
  CHOICES_PER_QUESTION_MAX,
  DECISION_NOTE_MAX,
  DecisionAnswer,
  DecisionEmailStatus,
  type Form,
  FORM_DESCRIPTION_MAX,
  FORM_TAGS_MAX,
  FORM_TITLE_MAX,
  type FormResponse,
  FORMS_PER_WORKSPACE_MAX,
  PARAGRAPH_ANSWER_MAX,
  type Question,
  QUESTION_LABEL_MAX,
  QuestionKind,
  QUESTIONS_PER_FORM_MAX,
  QuizRow,
  TEXT_ANSWER_MAX
} from "./forms/schema.js"
export { type ApplicationsQuery, type FormFields, type FormSubmission, StoreForms } from "./forms/service.js"
export type { Decision, DecisionAccess, DecisionTarget, FormView } from "./forms/form-view.js"
export {
  applicationJson,
  applicationPageJson,
  decisionApiAnswer,
  decisionJson,
  formJson,
  formPageJson
} from "./forms/form-json.js"
export { readApplicationsQuery, readFormListQuery } from "./forms/form-query.js"
export { BadListRequest, StoreAccessDenied } from "./errors.js"
export {
  AccessHowLiteral,
  BundleProductLine,
  CohortRow,
  CohortSignupRow,
  CustomerFeedRow,
  FirstPaymentRow,
  MembershipChangeRow,
  MembershipPaymentRow,
  RefundFeedRow,
  RenewalPaymentRow,
  SaleFeedRow
} from "./overview/feed-rows.js"
export { FEED_SELECTIONS, type FeedSelection } from "../events/feed-selections.js"
export {
  changesFeedJson,
  cohortSignupsFeedJson,
  contactTaggedFeedJson,
  customersFeedJson,
  emailSignupsFeedJson,
  formCompletedFeedJson,
  affiliateApplicationsFeedJson,
  affiliateSalesFeedJson,
  affiliatesFeedJson,
  lessonQuestionsFeedJson,
  lessonsCompletedFeedJson,
  paidQuestionsFeedJson,
  reviewsFeedJson,
  testimonialsFeedJson,
  paymentsFeedJson,
  refundsFeedJson,
  salesFeedJson
} from "./overview/feed-json.js"
export { StoreFeeds } from "./overview/feeds.js"
export {
  ANSWER_MAX,
  answerUrlOf,
  type PaidQuestion,
  type PaidQuestionStatus,
  QUESTION_MAX,
  questionStatus
} from "./questions/paid-question.js"
export { PaidQuestionsRepo } from "./questions/ports.js"
export { questionProblem, StorePaidQuestions } from "./questions/paid-questions.js"
export { type PaidQuestionListQuery, readPaidQuestionListQuery } from "./questions/question-query.js"
export {
  PaidQuestionAnswer,
  PaidQuestionFeedRow,
  PaidQuestionRow,
  PaidQuestionsApiGroup,
  paidQuestionFields
} from "./questions/question-api.js"
export { paidQuestionJson, paidQuestionPageJson } from "./questions/question-json.js"
export { ReviewRequestsRepo, type ReviewRequestOutcome, ReviewsRepo } from "./reviews/ports.js"
export {
  type HeldReviewRequest,
  REVIEW_REQUEST_DELAY_DAYS,
  type ReviewRequest,
  type ReviewRequestState,
  reviewUrlOf
} from "./reviews/review-request.js"
export {
  type BuyerReviewInput,
  readBuyerReview,
  type ReviewPageView,
  StoreReviewRequests
} from "./reviews/review-requests.js"
export {
  claimDueReviewRequests,
  DEFAULT_REVIEW_REQUEST_WORKER,
  ReviewRequestWorkerLive,
  type ReviewRequestWorkerOptions,
  runDueReviewRequests,
  sendHeldReviewRequest
} from "./reviews/review-worker.js"
export {
  type ProductReview,
  type RatingSummary,
  REVIEW_IMPORT_MAX,
  REVIEW_NAME_MAX,
  REVIEW_TEXT_MAX,
  type ReviewOrigin,
  REVIEWS_SHOWN
} from "./reviews/review.js"
export { type ImportedReview, StoreReviews } from "./reviews/reviews.js"
export {
  ReviewAnswer,
  ReviewFeedRow,
  ReviewRow,
  ReviewsApiGroup,
  reviewFields,
  TestimonialFeedRow,
  testimonialFields
} from "./reviews/review-api.js"
export { reviewJson, reviewPageJson } from "./reviews/review-json.js"
export { readReviewListQuery, type ReviewListQuery } from "./reviews/review-query.js"
export {
  CREATOR_BIO_MAX,
  CREATOR_FEATURED_MAX,
  CREATOR_HEADLINE_MAX,
  CREATOR_LINKS_MAX,
  type CreatorLink,
  type CreatorPage,
  type CreatorPageChanges,
  DEFAULT_SIGNUP_HEADING,
  emptyCreatorPage,
  type SignupBlock
} from "./creator-page/creator-page.js"
export { CreatorPagesRepo } from "./creator-page/ports.js"
export {
  type CreatorPageView,
  type FeaturedProduct,
  StoreCreatorPage
} from "./creator-page/creator-pages.js"
export {
  CreatorPageAnswer,
  CreatorPageApiGroup,
  CreatorPageBody,
  CreatorPageRow
} from "./creator-page/creator-page-api.js"
export {
  creatorAvatarUrl,
  creatorPageChangesOf,
  creatorPageJson,
  creatorPageUrl
} from "./creator-page/creator-page-json.js"
export {
  type CourseLearner,
  type CourseModule,
  courseOutline,
  courseUrlOf,
  LESSON_ANSWER_MAX,
  LESSON_QUESTION_MAX,
  LESSON_QUESTION_NAME_MAX,
  type Lesson,
  type LessonQuestion,
  type LessonQuestionStatus,
  lessonQuestionStatus,
  lessonsOf,
  lessonUrlOf
} from "./courses/course.js"
export { CoursesRepo } from "./courses/ports.js"
export { isCourse } from "./courses/course-links.js"
export {
  type CourseView,
  LESSON_QUESTIONS_PER_DAY,
  NoSuchLesson,
  type LessonQuestionInput,
  type LessonView,
  readLessonQuestion,
  StoreCourses
} from "./courses/courses.js"
export {
  LessonCompletedFeedRow,
  LessonQuestionAnswer,
  LessonQuestionFeedRow,
  LessonQuestionRow,
  LessonsApiGroup
} from "./courses/lesson-api.js"
export { lessonQuestionJson, lessonQuestionPageJson } from "./courses/lesson-question-json.js"
export { type LessonQuestionListQuery, readLessonQuestionListQuery } from "./courses/lesson-question-query.js"
export {
  AFFILIATE_CODE,
  type Affiliate,
  type AffiliateProgram,
  type AffiliateStatus,
  type Commission,
  type CommissionKind,
  commissionOf
} from "./affiliates/affiliate.js"
export { AffiliatesRepo, type PayoutTotals } from "./affiliates/ports.js"
export { makeAffiliateCommissions } from "./affiliates/commissions.js"
export {
  type AffiliateDecision,
  type AffiliateInput,
  type DescribedAffiliate,
  type DescribedProgram,
  type ProgramChanges,
  StoreAffiliates
} from "./affiliates/affiliates.js"
export {
  AffiliateAnswer,
  AffiliateApplicationFeedRow,
  AffiliateFeedRow,
  AffiliatePayoutAnswer,
  AffiliateProgramAnswer,
  AffiliateProgramRow,
  AffiliateRow,
  AffiliateSaleFeedRow,
  AffiliatesApiGroup
} from "./affiliates/affiliate-api.js"
export { type AffiliateListQuery, readAffiliateListQuery } from "./affiliates/affiliate-query.js"
export {
  affiliateJson,
  affiliatePageJson,
  affiliatePayoutJson,
  affiliateProgramJson
} from "./affiliates/affiliate-json.js"
export { StoreLive } from "./layer.js"
export {
  OVERVIEW_MAX_DAYS,
  OVERVIEW_PERIODS,
  type OverviewPeriod,
  type OverviewRequest,
  type PeriodFigures,
  type ProductCounts,
  type ProductSales,
  STORE_EVENT_TYPES,
  StoreOverview,
  StoreStatsRepo
} from "./overview/overview.js"
export { overviewJson } from "./overview/overview-json.js"
export { readOverviewRequest } from "./overview/overview-request.js"
export type { Figure, OverviewEvent, SellerOverview, SetupItem, Span } from "./overview/seller-overview.js"
export { pagedAnswer, type StoreListQuery } from "../shared/list-query.js"
export { BundlesRepo, ProductsRepo, StoreSettingsRepo, type WaitlistEntry, WaitlistRepo } from "./catalog/ports.js"
export { AccessRepo, SalesRepo } from "./sales/ports.js"
export { type FeedQuery, StoreFeedRepo } from "./overview/ports.js"
export { CohortsRepo } from "./cohorts/ports.js"
export { EmailContactsRepo, type StoreTag, StoreTagsRepo } from "./email-list/ports.js"
export type { CreatedRange } from "../shared/paging.js"
export type { ChecklistItem, StoreSettings } from "./catalog/product-rules.js"
export {
  Billing,
  PaymentPlan,
  type Product,
  ProductChanges,
  type ProductKind,
  type ProductFieldName,
  ProductFields,
  ProductStatus,
  SectionKey,
  Sections
} from "./catalog/product.js"
export {
  type Attribution,
  NO_ATTRIBUTION,
  type Sale,
  SaleEvent,
  type SaleRejection,
  type SaleRowStatus,
  type SaleSource,
  type SaleStatus
} from "./sales/sale.js"
export { type SaleInput, saleInputOf } from "./sales/sale-input.js"
export { saleAnswerJson, saleApiAnswer, saleJson, salePageJson } from "./sales/sale-json.js"
export { isTurnedAway, type SaleCounted, type SaleOutcome, type SaleTurnedAway } from "./sales/sale-outcome.js"
export { readSaleListQuery, type SaleListQuery, saleListQueryOf } from "./sales/sale-query.js"
export { StoreSaleLimits, StoreSales } from "./sales/sales.js"
export { STORE_NAME_MAX, StoreSetup, type StoreSettingsChanges, type StoreSettingsView } from "./catalog/settings.js"
export {
  StoreSettingsAnswer,
  StoreSettingsApiGroup,
  StoreSettingsPatch,
  StoreSettingsRow,
  settingsProblemOnWire,
  storeSettingsChangesOf,
  storeSettingsJson
} from "./catalog/settings-api.js"
export { StorePages } from "./catalog/store-pages.js"
export { StoreTagging } from "./email-list/tags.js"
export { storeTools } from "./tools.js"
export {
  type EnrolmentClaim,
  type EnrolmentMove,
  EmailSequencesRepo,
  type NewEnrolment
} from "./sequences/ports.js"
export {
  type ClaimedEnrolment,
  type EmailSequence,
  EmailSequenceRow,
  type Enrolment,
  type EnrolmentCounts,
  type EnrolmentState,
  SEQUENCE_NAME_MAX,
  SEQUENCE_STARTS_MAX,
  SEQUENCE_STEPS_MAX,
  SEQUENCES_PER_STORE_MAX,
  SequenceState,
  type SequenceStep,
  type SequenceView,
  STEP_BODY_MAX,
  STEP_DELAY_MAX_MINUTES,
  STEP_SUBJECT_MAX
} from "./sequences/schema.js"
export { type SequenceFields, StoreEmailSequences } from "./sequences/service.js"
export { sequenceDetailJson, sequenceJson, sequencePageJson } from "./sequences/sequence-json.js"
export { readSequenceListQuery, type SequenceListQuery } from "./sequences/sequence-query.js"
export {
  claimDueEnrolments,
  DEFAULT_SEQUENCE_WORKER,
  runDueSequenceSteps,
  runSequenceWorker,
  SequenceWorkerLive,
  type SequenceWorkerOptions,
  sendDueStep
} from "./sequences/worker.js"
