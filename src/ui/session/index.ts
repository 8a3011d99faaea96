export { type CaptchaChallenge, type CaptchaSolution, type LoginError, type LoginOutcome } from "./core";
export { newCaptcha, passCaptcha, signIn, signInWithApiKey, signOut, startSession, verifyTwoFactor } from "./session";
