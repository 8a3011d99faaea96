/**
 * Withdrawals (docs/product-rules.md#withdrawals, wire in docs/protocol.md#withdrawals): the methods
 * with their fee and minimum, the daily limits by verification level, the travel-rule threshold and
 * details, the statuses a withdrawal goes through, the amount rules, the refusals the exchange
 * sends, and the bodies of the withdrawal calls. One copy for the exchange, which enforces them, and
 * the withdrawal page, which checks the form as it is filled and shows the same figures. Nothing
 * here is user text: a refusal names a field and a reason that the page maps to a localized message.
 */
import { WITHDRAWAL_NETWORKS, type Beneficiary, type WithdrawalMethod } from "./addresses";
import { readBeneficiary } from "./addresses";
import { levelGateOf } from "./compliance";
import { VERIFICATION_LEVELS } from "./constants";
import { checkTransferAmount, isTransferRequestId } from "./transfers";

/** A withdrawal method: the network, the fee the network takes and the smallest amount accepted. */
export interface WithdrawalMethodInfo {
  readonly method: WithdrawalMethod;
  readonly currency: string;
  /** The network as the page names it (a proper name, not translated). */
  readonly network: string;
  /** Taken from the amount: what arrives is amount − fee. */
  readonly fee: number;
  /** The smallest amount that may be requested (above the fee, so something always arrives). */
  readonly minimum: number;
}

const FEES: Readonly<Record<WithdrawalMethod, { readonly fee: number; readonly minimum: number }>> = {
  bitcoin: { fee: 0.0004, minimum: 0.0005 },
  ethereum: { fee: 0.0024, minimum: 0.005 },
  litecoin: { fee: 0.001, minimum: 0.01 },
  ripple: { fee: 0.1, minimum: 1 },
  solana: { fee: 0.01, minimum: 0.05 },
};

/** Every withdrawal method, in the order of WITHDRAWAL_NETWORKS. */
export const WITHDRAWAL_METHODS: readonly WithdrawalMethodInfo[] = /* @__PURE__ */ methods();

function methods(): WithdrawalMethodInfo[] {
  return WITHDRAWAL_NETWORKS.map((n) => ({
    method: n.method,
    currency: n.currency,
    network: n.name,
    ...FEES[n.method],
  }));
}

/** The method of a wire name (any case), or undefined. */
export function withdrawalMethodInfo(name: unknown): WithdrawalMethodInfo | undefined {
  if (typeof name !== "string") return undefined;
  const m = name.toLowerCase();
  return WITHDRAWAL_METHODS.find((x) => x.method === m);
}

/**
 * The USD value an account may request in any rolling 24 hours, by verification level (withdrawals
 * that are not CANCELED count, each at its USD value when it was requested). Below INTERMEDIATE
 * nothing: withdrawals need level 2 (compliance.ts `WITHDRAW_LEVEL`).
 */
export const WITHDRAWAL_DAILY_LIMIT_USD: Readonly<Record<number, number>> = {
  [VERIFICATION_LEVELS.INTERMEDIATE]: 50_000,
  [VERIFICATION_LEVELS.FULL]: 1_000_000,
};

/** The daily limit of a level (0 for a level that may not withdraw). */
export function withdrawalDailyLimitUsd(level: number): number {
  return WITHDRAWAL_DAILY_LIMIT_USD[level] ?? 0;
}

/** The window the daily limit counts over. */
export const WITHDRAWAL_LIMIT_WINDOW_MS = 24 * 60 * 60_000;

/** At or above this USD value a withdrawal must carry the travel-rule details. */
export const TRAVEL_RULE_THRESHOLD_USD = 1000;

/** How long the mailed confirmation link works; an unconfirmed withdrawal is then canceled and refunded. */
export const WITHDRAWAL_CONFIRM_TTL_MS = 60 * 60_000;

/** The STATUS of a withdrawal's movement row. */
export const WITHDRAWAL_STATUS = {
  /** Waiting for the mailed confirmation. */
  unconfirmed: "UNCONFIRMED",
  /** Confirmed, queued; still cancellable. */
  pending: "PENDING",
  /** Being sent: no longer cancellable. */
  processing: "PROCESSING",
  /** Sent, with its transaction id. */
  completed: "COMPLETED",
  /** Canceled (by the owner, or unconfirmed for an hour): the amount went back to the wallet. */
  canceled: "CANCELED",
} as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUS)[keyof typeof WITHDRAWAL_STATUS];

/** Whether a withdrawal in this status may still be canceled. */
export function withdrawalCancellable(status: string): boolean {
  return status === WITHDRAWAL_STATUS.unconfirmed || status === WITHDRAWAL_STATUS.pending;
}

/** The `n` notification types of a withdrawal's status changes (data: its movement row). */
export const WITHDRAWAL_NOTIFICATIONS = {
  processing: "wallet_withdrawal_processing",
  completed: "wallet_withdrawal_completed",
  canceled: "wallet_withdrawal_canceled",
} as const;

/** The page a mailed confirmation link opens, with `?confirm=TOKEN`. */
export const WITHDRAW_PAGE = "/withdraw";

export type WithdrawalAmountProblem = "invalid" | "precision" | "below-minimum";

/**
 * What is wrong with an amount to withdraw by `method`, or null: the transfer rules (plain decimal
 * text or a JSON number, no sign, exponent, hex, NaN or Infinity, above zero, below 1e12, at most 8
 * decimals) and at least the method's minimum.
 */
export function checkWithdrawalAmount(value: unknown, method: WithdrawalMethodInfo): WithdrawalAmountProblem | null {
  const problem = checkTransferAmount(value, method.currency);
  if (problem !== null) return problem;
  const n = typeof value === "number" ? value : Number(String(value).trim());
  // Compared in units of 1e-8: 0.0005 as a float must not fall below a minimum of 0.0005.
  return Math.round(n * 1e8) < Math.round(method.minimum * 1e8) ? "below-minimum" : null;
}

/** The request id a withdrawal may carry: the transfers' rule (8–64 of A–Z a–z 0–9 _ -). */
export const isWithdrawRequestId = isTransferRequestId;

// ---------------------------------------------------------------------------------------------
// The travel rule

/** A virtual-asset service provider a destination may belong to. */
export interface Vasp {
  /** A short slug, what a withdrawal names. */
  readonly id: string;
  /** A proper name, not translated. */
  readonly name: string;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
}

/** The providers this exchange knows (the travel rule's counterparty list). */
export const VASPS: readonly Vasp[] = [
  { id: "coinbase", name: "Coinbase", country: "US" },
  { id: "kraken", name: "Kraken", country: "US" },
  { id: "bitstamp", name: "Bitstamp", country: "LU" },
  { id: "binance", name: "Binance", country: "MT" },
  { id: "gemini", name: "Gemini", country: "US" },
  { id: "bitpanda", name: "Bitpanda", country: "AT" },
  { id: "bitvavo", name: "Bitvavo", country: "NL" },
  { id: "anchorage", name: "Anchorage Digital", country: "US" },
];

/** Where the coins go: a wallet the sender holds (attested), or an account at a provider. */
export type TravelRuleDestination =
  { readonly type: "self_hosted"; readonly attested: true } | { readonly type: "vasp"; readonly vasp: string };

/** The travel-rule details of a withdrawal at or above the threshold. */
export interface TravelRule {
  readonly beneficiary: Beneficiary;
  readonly destination: TravelRuleDestination;
}

/** Why travel-rule details are refused: their shape, or a provider not in VASPS. */
export type TravelRuleProblem = "invalid" | "vasp";

/** Reads travel-rule details from a request or a form. */
export function readTravelRule(v: unknown): TravelRule | TravelRuleProblem {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "invalid";
  const o = v as Record<string, unknown>;
  const beneficiary = readBeneficiary(o["beneficiary"]);
  if (typeof beneficiary === "string") return "invalid";
  const d = o["destination"];
  if (typeof d !== "object" || d === null || Array.isArray(d)) return "invalid";
  const dest = d as Record<string, unknown>;
  if (dest["type"] === "self_hosted")
    return dest["attested"] === true
      ? { beneficiary, destination: { type: "self_hosted", attested: true } }
      : "invalid";
  if (dest["type"] !== "vasp" || typeof dest["vasp"] !== "string") return "invalid";
  const vasp = dest["vasp"];
  return VASPS.some((x) => x.id === vasp) ? { beneficiary, destination: { type: "vasp", vasp } } : "vasp";
}

// ---------------------------------------------------------------------------------------------
// Refusals

/** Every refusal the exchange answers a withdrawal call with (`["error", CODE, MESSAGE]`). */
export const WITHDRAW_REFUSALS = {
  wallet: "wallet: invalid",
  method: "method: invalid",
  amount: "amount: invalid",
  precision: "amount: precision (more decimals than the currency has)",
  belowMinimum: "amount: below the method's minimum",
  insufficient: "amount: insufficient balance in the wallet",
  /** No USD rate for the currency now: the daily limit cannot be checked, so nothing is sent. */
  noRate: "amount: no USD rate for the currency",
  /** Not an address of the network; `/v1/ui_check_address` tells why. */
  address: "address: invalid",
  paymentId: "payment_id: invalid",
  /** Not sent as is: the level refusal is `levelGateMessage`'s (compliance.ts), read by `levelGateOf`. */
  level: "verification: level needed to withdraw",
  withdrawalsOff: "withdrawals: turned off for this currency on this account",
  whitelist: "address: not a confirmed address of the book (the whitelist is on)",
  dailyLimit: "amount: over the daily withdrawal limit of the verification level",
  travelRuleRequired: "travel_rule: required at or above the threshold",
  travelRuleInvalid: "travel_rule: invalid",
  travelRuleVasp: "travel_rule: unknown provider",
  requestId: "request_id: invalid",
  requestReused: "request_id: already used for another withdrawal",
  secondFactorRequired: "code: required",
  secondFactorWrong: "code: invalid",
  secondFactorExpired: "code: expired, ask for a new one",
  secondFactorLocked: "code: too many attempts, try again later",
  noSecondFactor: "code: the account has no second factor",
  smsNotEnabled: "sms: not the account's second factor",
  smsWait: "sms: wait before asking for another code",
  smsTooMany: "sms: too many messages, try again later",
  /** Only the account's own signed-in session may confirm (not an API key, not another account). */
  sessionRequired: "withdrawal: a session token is required",
  confirmLink: "link: invalid",
  cancelTooLate: "withdrawal: already processing or done",
  notFound: "withdrawal: not found",
} as const;

export type WithdrawRefusal = keyof typeof WITHDRAW_REFUSALS;

/** Which refusal a message is; null for a message of another kind. */
export function withdrawRefusalOf(message: string): WithdrawRefusal | null {
  const gate = levelGateOf(message);
  if (gate !== null && gate.action === "withdraw") return "level";
  for (const [k, v] of Object.entries(WITHDRAW_REFUSALS)) if (v === message) return k as WithdrawRefusal;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Bodies

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isNumOrNull = (v: unknown): v is number | null => v === null || isNum(v);

/** The account's second factor a withdrawal asks for: its authenticator, else its SMS number, else none. */
export type WithdrawSecondFactor = "otp" | "sms" | null;

/** `r/int/movements/withdraw/info {method}`: what the form needs to know before anything is typed. */
export interface WithdrawInfo {
  readonly method: string;
  readonly currency: string;
  readonly fee: number;
  readonly minimum: number;
  readonly level: { readonly current: number; readonly needed: number };
  readonly dailyLimitUsd: number;
  /** USD requested in the last 24 hours (not CANCELED). */
  readonly usedUsd: number;
  /** What may still be requested, in the currency (null when there is no rate). */
  readonly remaining: number | null;
  /** One unit of the currency in USD (null when unknown). */
  readonly usdRate: number | null;
  readonly travelRuleThresholdUsd: number;
  readonly secondFactor: WithdrawSecondFactor;
  /** Whether a mailed confirmation follows the request (false with `no_enforce_withdrawal_check` on). */
  readonly mailConfirmation: boolean;
  readonly available: { readonly exchange: number; readonly margin: number; readonly funding: number };
}

export const withdrawInfoCodec = {
  encode(i: WithdrawInfo): Record<string, unknown> {
    return { ...i, level: { ...i.level }, available: { ...i.available } };
  },
  decode(raw: unknown): WithdrawInfo | null {
    if (!isRecord(raw)) return null;
    const { method, currency, fee, minimum, level, dailyLimitUsd, usedUsd, remaining, usdRate } = raw;
    const { travelRuleThresholdUsd, secondFactor, mailConfirmation, available } = raw;
    if (typeof method !== "string" || typeof currency !== "string") return null;
    if (!isNum(fee) || !isNum(minimum) || !isNum(dailyLimitUsd) || !isNum(usedUsd)) return null;
    if (!isNumOrNull(remaining) || !isNumOrNull(usdRate) || !isNum(travelRuleThresholdUsd)) return null;
    if (secondFactor !== "otp" && secondFactor !== "sms" && secondFactor !== null) return null;
    if (typeof mailConfirmation !== "boolean") return null;
    if (!isRecord(level) || !isNum(level["current"]) || !isNum(level["needed"])) return null;
    if (!isRecord(available)) return null;
    const { exchange, margin, funding } = available;
    if (!isNum(exchange) || !isNum(margin) || !isNum(funding)) return null;
    return {
      method,
      currency,
      fee,
      minimum,
      level: { current: level["current"], needed: level["needed"] },
      dailyLimitUsd,
      usedUsd,
      remaining,
      usdRate,
      travelRuleThresholdUsd,
      secondFactor,
      mailConfirmation,
      available: { exchange, margin, funding },
    };
  },
};

/** `r/int/movements/travel-rule {address, method}`: the book entry of the address, and the providers. */
export interface TravelRuleInfo {
  readonly entry: { readonly label: string; readonly beneficiary: Beneficiary } | null;
  readonly vasps: readonly Vasp[];
}

export const travelRuleInfoCodec = {
  encode(t: TravelRuleInfo): Record<string, unknown> {
    return { entry: t.entry, vasps: t.vasps.map((v) => ({ ...v })) };
  },
  decode(raw: unknown): TravelRuleInfo | null {
    if (!isRecord(raw) || !Array.isArray(raw["vasps"])) return null;
    const vasps: Vasp[] = [];
    for (const v of raw["vasps"] as unknown[]) {
      if (!isRecord(v) || typeof v["id"] !== "string" || typeof v["name"] !== "string") return null;
      if (typeof v["country"] !== "string") return null;
      vasps.push({ id: v["id"], name: v["name"], country: v["country"] });
    }
    const e = raw["entry"];
    if (e === null) return { entry: null, vasps };
    if (!isRecord(e) || typeof e["label"] !== "string") return null;
    const beneficiary = readBeneficiary(e["beneficiary"]);
    if (typeof beneficiary === "string") return null;
    return { entry: { label: e["label"], beneficiary }, vasps };
  },
};

/** A withdrawal as the page sends it (`w/withdraw`). */
export interface WithdrawRequest {
  readonly wallet: "exchange" | "margin" | "funding";
  readonly method: WithdrawalMethod;
  /** Decimal text, as typed (checked with checkWithdrawalAmount first). */
  readonly amount: string;
  readonly address: string;
  readonly paymentId: string;
  readonly note: string;
  readonly requestId: string;
  /** The second-factor code; empty when the credential needs none. */
  readonly code: string;
  readonly travelRule: TravelRule | null;
}

/** `w/withdraw`'s body; empty optional fields are left out. */
export function encodeWithdrawRequest(r: WithdrawRequest): Record<string, unknown> {
  return {
    wallet: r.wallet,
    method: r.method,
    amount: r.amount.trim(),
    address: r.address.trim(),
    ...(r.paymentId.trim() !== "" ? { payment_id: r.paymentId.trim() } : {}),
    ...(r.note.trim() !== "" ? { note: r.note.trim() } : {}),
    request_id: r.requestId,
    ...(r.code.trim() !== "" ? { code: r.code.replace(/\s+/g, "") } : {}),
    ...(r.travelRule !== null ? { travel_rule: r.travelRule } : {}),
  };
}

/** The most characters a withdrawal's note keeps. */
export const WITHDRAWAL_NOTE_MAX = 140;

/** `w/int/movements/confirm` and `w/int/movements/cancel`: the withdrawal and its new status. */
export interface WithdrawalState {
  readonly id: number;
  readonly status: WithdrawalStatus;
}

const STATUSES: ReadonlySet<string> = /* @__PURE__ */ new Set(Object.values(WITHDRAWAL_STATUS));

export const withdrawalStateCodec = {
  encode: (s: WithdrawalState): Record<string, unknown> => ({ id: s.id, status: s.status }),
  decode(raw: unknown): WithdrawalState | null {
    if (!isRecord(raw) || !isNum(raw["id"]) || typeof raw["status"] !== "string" || !STATUSES.has(raw["status"]))
      return null;
    return { id: raw["id"], status: raw["status"] as WithdrawalStatus };
  },
};

/** `r/int/movements/confirm/check {token}`: what the mailed link would confirm. */
export interface WithdrawalConfirmCheck {
  readonly id: number;
  readonly currency: string;
  readonly amount: number;
  readonly address: string;
  readonly status: WithdrawalStatus;
}

export const withdrawalConfirmCheckCodec = {
  encode: (c: WithdrawalConfirmCheck): Record<string, unknown> => ({ ...c }),
  decode(raw: unknown): WithdrawalConfirmCheck | null {
    const s = withdrawalStateCodec.decode(raw);
    if (!s || !isRecord(raw)) return null;
    const { currency, amount, address } = raw;
    if (typeof currency !== "string" || !isNum(amount) || typeof address !== "string") return null;
    return { id: s.id, currency, amount, address, status: s.status };
  },
};
