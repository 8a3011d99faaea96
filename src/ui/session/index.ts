export {
  initialSessionState,
  RENEW_BEFORE_EXPIRY_MS,
  type CaptchaChallenge,
  type Feedback,
  type LoginError,
  type LoginInput,
  type LoginOutcome,
  type SessionMode,
  type SessionState,
  type TokenStatus,
} from "./core";
export {
  AUTH_EXPIRES_KEY,
  newCaptcha,
  session,
  signIn,
  signInWithApiKey,
  signOut,
  startSession,
  useSession,
  verifyTwoFactor,
} from "./session";
