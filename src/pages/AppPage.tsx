/**
 * The app and download pages: what there is to install (the web app: public/manifest.webmanifest
 * and the background worker of public/sw.js) and how each browser installs it. There is no store
 * listing, and the pages say so.
 */
import { Trans } from "@lingui/react/macro";
import { ContentPage, FactList } from "../ui/site";
import * as css from "./pages.css";

function InstallSteps() {
  return (
    <FactList
      facts={[
        {
          term: <Trans>Chrome or Edge on a computer</Trans>,
          value: (
            <Trans>Click the install icon at the right of the address bar, or open the menu and choose Install.</Trans>
          ),
        },
        {
          term: <Trans>Chrome on Android</Trans>,
          value: <Trans>Open the menu (⋮) and choose Add to home screen, then Install.</Trans>,
        },
        {
          term: <Trans>Safari on iPhone or iPad</Trans>,
          value: <Trans>Tap Share, then Add to Home Screen.</Trans>,
        },
        {
          term: <Trans>Safari on a Mac</Trans>,
          value: <Trans>Choose File, then Add to Dock.</Trans>,
        },
        {
          term: <Trans>Firefox on Android</Trans>,
          value: <Trans>Open the menu and choose Install.</Trans>,
        },
        {
          term: <Trans>Firefox on a computer</Trans>,
          value: <Trans>It does not install web apps: keep a bookmark instead.</Trans>,
        },
      ]}
    />
  );
}

export function AppPage() {
  return (
    <ContentPage
      title={<Trans>The Orderflow app</Trans>}
      lead={
        <Trans>
          Orderflow is a web app you can install: no app store, no download to trust, always the latest version. It
          opens in its own window and starts from your home screen or dock.
        </Trans>
      }
      actions={
        <a className={css.cta} href="/download">
          <Trans>How to install</Trans>
        </a>
      }
      sections={[
        {
          id: "what",
          title: <Trans>What you get</Trans>,
          content: (
            <ul>
              <li>
                <Trans>The whole exchange: the trading desk, your wallets, deposits, withdrawals and account.</Trans>
              </li>
              <li>
                <Trans>
                  A faster start: the app's files are kept on your device, and only new versions are fetched.
                </Trans>
              </li>
              <li>
                <Trans>Updates without a store: a new version is used as soon as it is published.</Trans>
              </li>
            </ul>
          ),
        },
        {
          id: "stores",
          title: <Trans>App stores</Trans>,
          content: (
            <p>
              <Trans>
                We do not publish an app in the App Store or Google Play. Any app there that uses our name is not ours:
                do not give it your password or keys.
              </Trans>
            </p>
          ),
        },
      ]}
      related={[
        { href: "/mobile-trading", label: <Trans>Mobile trading</Trans> },
        { href: "/pro", label: <Trans>Orderflow Pro</Trans> },
      ]}
    />
  );
}

export function DownloadPage() {
  return (
    <ContentPage
      title={<Trans>Download Orderflow</Trans>}
      lead={
        <Trans>
          There is nothing to download from a store: you install Orderflow from your browser, on this site, in a few
          seconds.
        </Trans>
      }
      sections={[
        { id: "browsers", title: <Trans>Install in your browser</Trans>, content: <InstallSteps /> },
        {
          id: "check",
          title: <Trans>Check the address first</Trans>,
          content: (
            <p>
              <Trans>
                Install only from this site's own address, shown in the address bar with its padlock. A copy on another
                address can steal what you type into it.
              </Trans>
            </p>
          ),
        },
        {
          id: "remove",
          title: <Trans>Removing it</Trans>,
          content: (
            <p>
              <Trans>
                Uninstall it as you would any app. Your account, orders and balances stay on the exchange, not in the
                app.
              </Trans>
            </p>
          ),
        },
      ]}
      related={[
        { href: "/app", label: <Trans>The Orderflow app</Trans> },
        { href: "/mobile-trading", label: <Trans>Mobile trading</Trans> },
      ]}
    />
  );
}
