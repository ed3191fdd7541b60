/** Mail delivery: the SMTP transport (nodemailer) and the signer of the links mail carries. */
export { MailSignerLive } from "./signer.js"
export { fromAddressProblem, judgeSmtpError, type SmtpSettings, SmtpTransportLive } from "./smtp.js"
