/**
 * Paper trading (docs/product-rules.md#paper-trading), one copy for the exchange and the app: the
 * paper account's record, the calls that open and enter it, what it starts with, and which calls
 * stay live-only. A paper account is an account of its own, opened once per user and reached
 * through its owner's sign-in session like a sub-account context; it holds TEST currencies only and
 * trades the TEST pairs only, and a live account never trades them.
 */
import { recordCodec, type Decoded, type FieldSpec } from "./positional";
import { TEST_PAIR } from "./constants";

/** `w/paper/open {}`: the caller's paper account, opened on the first call (answered as its record). */
export const PAPER_OPEN_PATH = "/v2/auth/w/paper/open";
/** `w/paper/context {}`: a token acting as the caller's paper account, answered `[TOKEN]`. */
export const PAPER_CONTEXT_PATH = "/v2/auth/w/paper/context";

/** User info's `subaccountType` of a paper account (its `groupId` is its owner's id). */
export const PAPER_ACCOUNT_TYPE = "paper";

/** The desk's pair in paper mode (its display currency is TEST_CURRENCY). */
export const PAPER_DEFAULT_PAIR = TEST_PAIR;

/**
 * The paper account: [ID, USERNAME, MTS_CREATE, OWNER_ID] — OWNER_ID the live account it belongs
 * to (the one account whose session may enter it).
 */
const PAPER_ACCOUNT = {
  id: [0, "num"],
  username: [1, "str"],
  mtsCreate: [2, "num"],
  ownerId: [3, "num"],
} as const satisfies FieldSpec;
export type PaperAccount = Decoded<typeof PAPER_ACCOUNT>;
export const paperAccountCodec = recordCodec("paper account", PAPER_ACCOUNT, 4);

/** What a paper account is funded with when it opens: TEST currencies only, spot and margin. */
export const PAPER_OPENING_BALANCES: readonly {
  readonly wallet: "exchange" | "margin";
  readonly currency: string;
  readonly amount: number;
}[] = [
  { wallet: "exchange", currency: "TESTUSD", amount: 50_000 },
  { wallet: "exchange", currency: "TESTBTC", amount: 1 },
  { wallet: "margin", currency: "TESTUSD", amount: 50_000 },
];

/** The refusal of a live-only call made as a paper account (`["error", 10001, …]`). */
export const PAPER_LIVE_ONLY_MESSAGE = "paper: live only";

/** The refusal of `w/paper/*` made with a credential that may not open or enter paper trading. */
export const PAPER_NOT_ALLOWED_MESSAGE = "paper: not-allowed";

/**
 * Whether a paper account may not make the call: money in or out (deposit addresses, withdrawals
 * and their confirmations), API keys, transfers to another account (its owner's live wallets
 * included), sub-accounts, and the funding markets (lending and borrowing there is with live
 * accounts' money, which test funds must never meet). Everything else — trading TEST pairs, its
 * own wallet transfers, reads — works.
 */
export function paperLiveOnly(path: string, body: Readonly<Record<string, unknown>>): boolean {
  if (path === "/v2/auth/w/transfer") return body["user_id_dst"] !== undefined || body["email_dst"] !== undefined;
  return (
    path.startsWith("/v2/auth/w/deposit/") ||
    path === "/v2/auth/w/withdraw" ||
    path.startsWith("/v2/auth/w/int/movements/") ||
    path.startsWith("/v2/auth/w/api/key/") ||
    path.startsWith("/v2/auth/w/subaccounts/create") ||
    path.startsWith("/v2/auth/w/subaccounts/settings") ||
    path.startsWith("/v2/auth/w/funding/") ||
    path === PAPER_OPEN_PATH
  );
}
