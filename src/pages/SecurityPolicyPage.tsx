/** Security policy: how the exchange protects accounts, funds and data, and how to report a vulnerability. */
import { Trans } from "@lingui/react/macro";
import { Callout, ContentPage } from "../ui/site";

export function SecurityPolicyPage() {
  return (
    <ContentPage
      title={<Trans>Security policy</Trans>}
      lead={
        <Trans>
          How Orderflow protects your account, your funds and your data, what we ask of you, and how to tell us about a
          weakness you have found.
        </Trans>
      }
      sections={[
        {
          id: "accounts",
          title: <Trans>Your account</Trans>,
          content: (
            <ul>
              <li>
                <Trans>
                  Sign-in can require a second factor: an authenticator app, a hardware security key or a text message.
                  Hardware keys resist phishing best.
                </Trans>
              </li>
              <li>
                <Trans>
                  The security page lists your active sessions and sign-in history; you can end any session and limit
                  sign-ins to the IP addresses you choose.
                </Trans>
              </li>
              <li>
                <Trans>
                  Every mail we send carries your account's freeze link: one click signs out every session, stops API
                  keys and blocks withdrawals until support lifts the freeze.
                </Trans>
              </li>
            </ul>
          ),
        },
        {
          id: "funds",
          title: <Trans>Withdrawals</Trans>,
          content: (
            <ul>
              <li>
                <Trans>
                  A withdrawal leaves only after you confirm it through the link we mail you, within one hour, from your
                  own session.
                </Trans>
              </li>
              <li>
                <Trans>
                  With the address book's allow-list turned on, funds can only go to addresses you saved beforehand.
                </Trans>
              </li>
              <li>
                <Trans>
                  API keys carry only the permissions you grant; a key without the withdrawal permission cannot move
                  funds out.
                </Trans>
              </li>
            </ul>
          ),
        },
        {
          id: "data",
          title: <Trans>Your data</Trans>,
          content: (
            <ul>
              <li>
                <Trans>
                  Passwords are stored only as scrypt hashes, and the tokens in mailed links only as SHA-256 digests: a
                  copy of our database would reveal neither.
                </Trans>
              </li>
              <li>
                <Trans>Add your PGP public key and the mail we send you is encrypted to it.</Trans>
              </li>
              <li>
                <Trans>
                  The site is served with a strict content security policy, and every balance change is written to the
                  database before it is announced.
                </Trans>
              </li>
            </ul>
          ),
        },
        {
          id: "you",
          title: <Trans>What we ask of you</Trans>,
          content: (
            <ul>
              <li>
                <Trans>Use a password you use nowhere else, and turn on a second factor.</Trans>
              </li>
              <li>
                <Trans>Check the address bar before you sign in, and never share codes or API secrets.</Trans>
              </li>
              <li>
                <Trans>
                  Report messages that pretend to be us on the <a href="/anti-spam">anti-spam page</a>.
                </Trans>
              </li>
            </ul>
          ),
        },
        {
          id: "disclosure",
          title: <Trans>Reporting a vulnerability</Trans>,
          content: (
            <>
              <p>
                <Trans>
                  If you find a weakness in the site, the API or the exchange,{" "}
                  <a href="/report?category=security">report it as a security vulnerability</a>. Give us the steps to
                  reproduce it and what an attacker could do, and keep it between you and us until it is fixed.
                </Trans>
              </p>
              <Callout>
                <Trans>
                  Research done in good faith under the <a href="/bug-bounty">bug bounty rules</a> is welcome, and valid
                  reports are rewarded.
                </Trans>
              </Callout>
            </>
          ),
        },
      ]}
      related={[
        { href: "/bug-bounty", label: <Trans>Bug bounty</Trans> },
        { href: "/anti-spam", label: <Trans>Anti-spam</Trans> },
        { href: "/freeze", label: <Trans>Freeze account</Trans> },
      ]}
    />
  );
}
