/**
 * The buying guides: one template, one page per coin (/how-to-buy-bitcoin, -ethereum, -litecoin).
 * Each walks from sign-up to the first order with links to the real pages, and shows the coin's
 * price live from the exchange. The verification levels named in the steps are the ones the
 * exchange enforces (src/ui/site-learn/levels.ts).
 */
import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { LEVEL_NAMES } from "../ui/account/level-gate";
import { Callout, ContentPage, type RelatedLink } from "../ui/site";
import { DEPOSIT_LEVEL, WITHDRAW_LEVEL } from "../ui/site-learn/levels";
import { LivePrice } from "../ui/site-learn/LivePrice";
import * as learn from "../ui/site-learn/site-learn.css";
import * as css from "./pages.css";

type Coin = "BTC" | "ETH" | "LTC";

const GUIDE_PATHS: Readonly<Record<Coin, string>> = {
  BTC: "/how-to-buy-bitcoin",
  ETH: "/how-to-buy-ethereum",
  LTC: "/how-to-buy-litecoin",
};

function CoinTitle({ coin }: { readonly coin: Coin }) {
  switch (coin) {
    case "BTC":
      return <Trans>How to buy bitcoin</Trans>;
    case "ETH":
      return <Trans>How to buy ethereum</Trans>;
    case "LTC":
      return <Trans>How to buy litecoin</Trans>;
  }
}

function AboutCoin({ coin }: { readonly coin: Coin }) {
  switch (coin) {
    case "BTC":
      return (
        <Trans>
          Bitcoin is the first cryptocurrency, running since 2009 on a network that no company or state controls. Its
          supply is capped at 21 million coins, and new coins are issued at a rate that halves every four years or so.
          You can buy a fraction of a coin: amounts go down to 0.00000001 BTC.
        </Trans>
      );
    case "ETH":
      return (
        <Trans>
          Ether (ETH) is the currency of Ethereum, a network that runs programs called smart contracts. Ether pays the
          fees of every transaction on it, and many tokens, USDt among them, live on Ethereum. Here you buy ether
          itself; tokens on Ethereum have their own markets.
        </Trans>
      );
    case "LTC":
      return (
        <Trans>
          Litecoin (LTC) was launched in 2011 as a lighter sibling of bitcoin: blocks every two and a half minutes
          instead of ten and a supply cap of 84 million coins. Transfers confirm faster and usually cost less, which is
          why many use it to move value between exchanges and wallets.
        </Trans>
      );
  }
}

function HowToBuy({ coin }: { readonly coin: Coin }) {
  const { i18n } = useLingui();
  const pair = `${coin}/USD`;
  const desk = `/tradedesk/${coin}USD`;
  const depositLevel = i18n._(LEVEL_NAMES[DEPOSIT_LEVEL]);
  const withdrawLevel = i18n._(LEVEL_NAMES[WITHDRAW_LEVEL]);
  const steps: readonly { readonly id: string; readonly title: ReactNode; readonly body: ReactNode }[] = [
    {
      id: "account",
      title: <Trans>Open an account</Trans>,
      body: (
        <>
          <p>
            <Trans>
              <a href="/signup">Sign up</a> with your e-mail address and a password, then open the link we mail you to
              confirm the address.
            </Trans>
          </p>
          <p>
            <Trans>
              Before you deposit anything, turn on two-factor sign-in with an authenticator app or a hardware key on the{" "}
              <a href="/security">security page</a>.
            </Trans>
          </p>
        </>
      ),
    },
    {
      id: "verify",
      title: <Trans>Verify your identity</Trans>,
      body: (
        <p>
          <Trans>
            Deposits need verification level {DEPOSIT_LEVEL} ({depositLevel}). Fill in the form on your{" "}
            <a href="/account">account page</a> with your name and home address; we write to you when it has been
            reviewed. <a href="/verification">What each level unlocks</a>.
          </Trans>
        </p>
      ),
    },
    {
      id: "deposit",
      title: <Trans>Deposit US dollars</Trans>,
      body: (
        <>
          <p>
            <Trans>
              Send a bank wire to the account shown on your <a href="/deposit/USD">US dollar deposit page</a>, with the
              payment reference given there: it tells us the money is yours. Already hold USDt?{" "}
              <a href="/deposit/UST">Deposit it</a> and convert it to dollars on the <a href="/wallets">wallets page</a>
              .
            </Trans>
          </p>
          <p>
            <Trans>
              Moving {coin} you already own instead? Send it to your own{" "}
              <a href={`/deposit/${coin}`}>{coin} deposit address</a>. Minimums and confirmations are listed under{" "}
              <a href="/deposits-and-withdrawals">deposits and withdrawals</a>.
            </Trans>
          </p>
        </>
      ),
    },
    {
      id: "order",
      title: <Trans>Place your first order</Trans>,
      body: (
        <p>
          <Trans>
            Open the <a href={desk}>{pair} market</a> on the trading desk. A market order buys at once at the best
            prices on offer; a limit order waits in the book at the price you name and pays the lower maker fee when it
            fills. See the <a href="/fees">fees</a> before you start.
          </Trans>
        </p>
      ),
    },
    {
      id: "withdraw",
      title: <Trans>Keep it or withdraw it</Trans>,
      body: (
        <p>
          <Trans>
            What you buy is in your exchange wallet at once. To send it to a wallet of your own, reach level{" "}
            {WITHDRAW_LEVEL} ({withdrawLevel}), add the address to your <a href="/security/addresses">address book</a>{" "}
            and <a href={`/withdraw/${coin}`}>withdraw {coin}</a>.
          </Trans>
        </p>
      ),
    },
  ];
  const related: RelatedLink[] = [
    { href: "/verification", label: <Trans>Verification levels</Trans> },
    { href: "/fees", label: <Trans>Fees</Trans> },
    { href: "/deposits-and-withdrawals", label: <Trans>Deposits and withdrawals</Trans> },
    ...(Object.keys(GUIDE_PATHS) as Coin[])
      .filter((c) => c !== coin)
      .map((c) => ({ href: GUIDE_PATHS[c], label: <CoinTitle coin={c} /> })),
  ];
  return (
    <ContentPage
      title={<CoinTitle coin={coin} />}
      lead={
        <Trans>
          Open an account, verify it, deposit US dollars and place your first order on the {pair} market. The bank wire
          is usually the slowest step.
        </Trans>
      }
      actions={
        <>
          <a className={css.cta} href="/signup">
            <Trans>Open an account</Trans>
          </a>
          <a className={css.ctaGhost} href={desk}>
            <Trans>Trade {pair}</Trans>
          </a>
        </>
      }
      toc={false}
      sections={[
        {
          id: "steps",
          title: <Trans>Five steps to your first {coin}</Trans>,
          content: (
            <ol className={learn.steps}>
              {steps.map((s) => (
                <li key={s.id} className={learn.step}>
                  <h3 className={learn.stepTitle}>{s.title}</h3>
                  {s.body}
                </li>
              ))}
            </ol>
          ),
        },
        {
          id: "about",
          title: <Trans>About {coin}</Trans>,
          content: (
            <p>
              <AboutCoin coin={coin} />
            </p>
          ),
        },
        {
          id: "risks",
          title: <Trans>Before you buy</Trans>,
          content: (
            <Callout tone="warning">
              <Trans>
                Crypto prices can move by double digits in a day. Buy only what you can afford to lose, and never send
                coins to anyone who promises to multiply them: we never ask for your password or your codes.
              </Trans>
            </Callout>
          ),
        },
      ]}
      related={related}
    >
      <LivePrice base={coin} />
    </ContentPage>
  );
}

export function HowToBuyBitcoinPage() {
  return <HowToBuy coin="BTC" />;
}

export function HowToBuyEthereumPage() {
  return <HowToBuy coin="ETH" />;
}

export function HowToBuyLitecoinPage() {
  return <HowToBuy coin="LTC" />;
}
