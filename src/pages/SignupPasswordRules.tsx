import { useLingui } from "@lingui/react/macro";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblems, type PasswordRule } from "../protocol";
import * as s from "./signup.css";

/** The password rules as a live checklist (the sign-up and the password reset share them). */
export function SignupPasswordRules(props: {
  readonly id: string;
  readonly password: string;
  readonly username: string;
  readonly email: string;
}) {
  const { t } = useLingui();
  const broken = new Set(passwordProblems(props.password, props));
  const min = PASSWORD_MIN_LENGTH;
  const max = PASSWORD_MAX_LENGTH;
  const rules: [PasswordRule, string][] = [
    ["length", t`At least ${min} characters`],
    ["letter", t`At least one letter`],
    ["digit-or-symbol", t`At least one digit or symbol`],
    ["not-identity", t`Does not contain your username or e-mail name`],
  ];
  if (broken.has("max-length")) rules.push(["max-length", t`At most ${max} characters`]);
  return (
    <ul className={s.rules} id={props.id}>
      {rules.map(([rule, text]) => {
        const met = props.password !== "" && !broken.has(rule);
        return (
          <li key={rule} className={met ? s.ruleMet : s.ruleOpen}>
            <span aria-hidden="true">{met ? "✓ " : "○ "}</span>
            {text} <span className={s.ruleOpen}>({met ? t`met` : t`not yet`})</span>
          </li>
        );
      })}
    </ul>
  );
}

/** The message for a password that breaks a rule (shown under the field once the form was sent). */
export function usePasswordProblemText(): (
  password: string,
  who: { username: string; email: string },
) => string | null {
  const { t } = useLingui();
  return (password, who) => {
    if (password === "") return t`Choose a password.`;
    return passwordProblems(password, who).length > 0 ? t`The password does not meet every rule below.` : null;
  };
}
