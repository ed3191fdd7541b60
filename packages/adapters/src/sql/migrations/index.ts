import foundation from "./0001_foundation.js"
import library from "./0002_library.js"
import libraryContent from "./0004_library_content.js"
import store from "./0005_store.js"
import oauth from "./0006_oauth.js"
import webhooks from "./0007_webhooks.js"
import storeCohorts from "./0008_store_cohorts.js"
import webhookClaims from "./0010_webhook_claims.js"
import oauthExpiry from "./0011_oauth_expiry.js"
import apiKeyToolsets from "./0012_api_key_toolsets.js"
import oauthAnyAudience from "./0013_oauth_any_audience.js"
import instantHooks from "./0014_instant_hooks.js"
import storeTools from "./0015_store_tools.js"
import credits from "./0016_credits.js"
import customAiKnowledge from "./0017_custom_ai_knowledge.js"
import customAiChats from "./0018_custom_ai_chats.js"
import customAiFields from "./0019_custom_ai_fields.js"
import skills from "./0020_skills.js"
import routines from "./0021_routines.js"
import askCallbacks from "./0022_ask_callbacks.js"
import emailList from "./0024_email_list.js"
import mailDelivery from "./0025_mail_delivery.js"
import emailSequences from "./0026_email_sequences.js"
import forms from "./0027_forms.js"
import scheduling from "./0028_scheduling.js"
import media from "./0029_media.js"
import mastodonApps from "./0030_mastodon_apps.js"
import research from "./0031_research.js"
import analytics from "./0032_analytics.js"
import autoDm from "./0033_auto_dm.js"
import music from "./0034_music.js"
import checkout from "./0035_checkout.js"
import cardProcessor from "./0036_card_processor.js"
import paidQuestions from "./0037_paid_questions.js"
import stripeConnect from "./0038_stripe_connect.js"
import productReviews from "./0039_product_reviews.js"
import reviewRequests from "./0040_review_requests.js"
import creatorPages from "./0041_creator_pages.js"
import courses from "./0042_courses.js"
import affiliates from "./0043_affiliates.js"

/** Every migration, by `<id>_<name>`, in the order they apply. */
export const migrations = {
  "0001_foundation": foundation,
  "0002_library": library,
  "0004_library_content": libraryContent,
  "0005_store": store,
  "0006_oauth": oauth,
  "0007_webhooks": webhooks,
  "0008_store_cohorts": storeCohorts,
  "0010_webhook_claims": webhookClaims,
  "0011_oauth_expiry": oauthExpiry,
  "0012_api_key_toolsets": apiKeyToolsets,
  "0013_oauth_any_audience": oauthAnyAudience,
  "0014_instant_hooks": instantHooks,
  "0015_store_tools": storeTools,
  "0016_credits": credits,
  "0017_custom_ai_knowledge": customAiKnowledge,
  "0018_custom_ai_chats": customAiChats,
  "0019_custom_ai_fields": customAiFields,
  "0020_skills": skills,
  "0021_routines": routines,
  "0022_ask_callbacks": askCallbacks,
  "0024_email_list": emailList,
  "0025_mail_delivery": mailDelivery,
  "0026_email_sequences": emailSequences,
  "0027_forms": forms,
  "0028_scheduling": scheduling,
  "0029_media": media,
  "0030_mastodon_apps": mastodonApps,
  "0031_research": research,
  "0032_analytics": analytics,
  "0033_auto_dm": autoDm,
  "0034_music": music,
  "0035_checkout": checkout,
  "0036_card_processor": cardProcessor,
  "0037_paid_questions": paidQuestions,
  "0038_stripe_connect": stripeConnect,
  "0039_product_reviews": productReviews,
  "0040_review_requests": reviewRequests,
  "0041_creator_pages": creatorPages,
  "0042_courses": courses,
  "0043_affiliates": affiliates
}
