export {
  type CaptchaChallenge,
  type CaptchaSolution,
  type HttpReply,
  type LoginError,
  type LoginOutcome,
} from "./core";
export {
  authCall,
  newCaptcha,
  passCaptcha,
  signIn,
  signInWithApiKey,
  signOut,
  session,
  startSession,
  switchAccount,
  requestSmsCode,
  verifyTwoFactor,
  verifyWithKey,
} from "./session";
export {
  checkResetToken,
  confirmEmail,
  requestPasswordReset,
  resendConfirmation,
  resetPassword,
  signupContext,
  signupNeedsCaptcha,
  submitSignup,
  type OpeningError,
  type SignupContext,
} from "./account-opening";
export { openingHttp } from "./opening-http";
export { submitRegionalApplication, venueTerms, type ApplicationError, type VenueTerms } from "./regional-application";
