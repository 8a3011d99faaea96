/**
 * The support page's answers, as message descriptors so the search reads them in the visitor's
 * language. Each answer states what this exchange does (docs/product-rules.md), figures included;
 * the ids are stable anchors (`/support#xrp-tag`).
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";

export interface SupportTopic {
  readonly id: string;
  readonly title: MessageDescriptor;
  readonly answers: readonly SupportAnswer[];
}

export interface SupportAnswer {
  readonly id: string;
  readonly question: MessageDescriptor;
  readonly answer: MessageDescriptor;
}

export const SUPPORT_TOPICS: readonly SupportTopic[] = [
  {
    id: "account",
    title: msg`Account and security`,
    answers: [
      {
        id: "open-account",
        question: msg`How do I open an account?`,
        answer: msg`Choose Sign up, enter your e-mail address, a username and a password, then confirm the address with the code we mail you. Residents of Türkiye and Brazil apply to Orderflow Türkiye or Orderflow Brasil instead; their team reviews each application.`,
      },
      {
        id: "freeze",
        question: msg`I think someone else has access to my account. What do I do?`,
        answer: msg`Freeze it at once with the link at the end of any e-mail we sent you, or from your account page. Every session is signed out, API keys stop working and nothing can be withdrawn until support lifts the freeze. Then change your e-mail password.`,
      },
      {
        id: "lost-2fa",
        question: msg`I lost the device with my two-factor codes.`,
        answer: msg`Support cannot turn off a second factor over chat or by a single e-mail. Send a report about signing in from your account's e-mail address: we confirm your identity before changing anything, which takes a few days on purpose.`,
      },
    ],
  },
  {
    id: "funds",
    title: msg`Deposits and withdrawals`,
    answers: [
      {
        id: "deposit-time",
        question: msg`When is my deposit credited?`,
        answer: msg`After its network confirms it: Bitcoin 3 confirmations, Litecoin 6, Ethereum and USDt on Ethereum 12, XRP, Solana and USDt on Solana 1. A deposit below the method's minimum is never credited.`,
      },
      {
        id: "xrp-tag",
        question: msg`I sent XRP without the destination tag.`,
        answer: msg`Every account shares one XRP address, and the destination tag says whose deposit it is. Without it the deposit reaches no account: send a report about deposits with the transaction ID so our team can trace it.`,
      },
      {
        id: "withdrawal-link",
        question: msg`Why is my withdrawal waiting for confirmation?`,
        answer: msg`Every withdrawal is confirmed through the link we mail you. It works once, for one hour, from your own session; an unconfirmed withdrawal expires and its amount returns to your wallet.`,
      },
      {
        id: "withdrawal-fee",
        question: msg`What does a withdrawal cost?`,
        answer: msg`A fixed network fee, taken from the amount: 0.0004 BTC, 0.0024 ETH, 0.001 LTC, 0.1 XRP or 0.01 SOL. What arrives is the amount minus the fee.`,
      },
    ],
  },
  {
    id: "trading",
    title: msg`Trading`,
    answers: [
      {
        id: "fees",
        question: msg`What are the trading fees?`,
        answer: msg`0.1 % for the maker and 0.2 % for the taker, of the trade's value. An order that rests on the book and is filled later is the maker; the order that fills against it is the taker.`,
      },
      {
        id: "post-only",
        question: msg`Why was my post-only order cancelled?`,
        answer: msg`A post-only order that would fill at once is cancelled instead of taking liquidity, so it never pays the taker fee by accident.`,
      },
      {
        id: "self-trade",
        question: msg`Why was my resting order cancelled when I placed another one?`,
        answer: msg`Your new order would have traded against your own resting order. The exchange never matches you with yourself: it cancels the resting order instead.`,
      },
    ],
  },
  {
    id: "tools",
    title: msg`API and reports`,
    answers: [
      {
        id: "api",
        question: msg`Can I trade through the API?`,
        answer: msg`Yes. The exchange speaks the Bitfinex API version 2 over REST and WebSocket. Create a key on the API keys page with only the permissions your program needs; a key without the withdrawal permission cannot move funds out.`,
      },
      {
        id: "history",
        question: msg`How do I export my trade history?`,
        answer: msg`Reports exports ledgers, orders, trades and positions as CSV. A large export is prepared in the background and mailed as a link that works for 24 hours.`,
      },
    ],
  },
];
