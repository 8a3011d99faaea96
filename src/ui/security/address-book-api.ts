/**
 * The withdrawal address book's calls (server/address-book.ts, docs/protocol.md#address-book)
 * through the session's transport, their answers read by src/protocol's codec and their refusals
 * sorted into what the page says. Every write answers the whole book, which the page shows as is.
 */
import {
  addressBookCodec,
  parseApiError,
  type AddressBook,
  type AddressRowProblem,
  type Beneficiary,
  type BeneficiaryProblem,
  type WithdrawalMethod,
} from "../../protocol";
import { authCall } from "../session";
import { apiErrorKind, type ApiErrorKind } from "../shell/api-notice";

const PATH = "/v1/account_address_book_entries";

/** Why a call was refused, as the page tells it. */
export type BookError =
  | { readonly kind: "password" }
  | { readonly kind: "code" }
  | { readonly kind: "row"; readonly index: number; readonly problem: AddressRowProblem }
  | { readonly kind: "label" }
  | { readonly kind: "beneficiary"; readonly field: BeneficiaryProblem }
  | { readonly kind: "full" }
  | { readonly kind: "link" }
  | { readonly kind: "gone" }
  | { readonly kind: "no-pending" }
  | { readonly kind: "proof-locked" }
  | { readonly kind: "app"; readonly app: ApiErrorKind };

export type BookResult =
  { readonly ok: true; readonly book: AddressBook } | { readonly ok: false; readonly error: BookError };

const ROW_PROBLEMS: ReadonlySet<string> = new Set<AddressRowProblem>([
  "empty",
  "characters",
  "checksum",
  "length",
  "testnet",
  "other-network",
  "unsupported",
  "payment-id-format",
  "payment-id-range",
  "payment-id-unsupported",
  "existing",
]);

/** Sorts a refusal by the exchange's message (server/address-book.ts writes them). */
export function bookErrorOf(status: number, body: unknown): BookError {
  const msg = status === 400 ? (parseApiError(body)?.message ?? "") : "";
  if (msg === "password: invalid") return { kind: "password" };
  if (msg.startsWith("otp:")) return { kind: "code" };
  if (msg === "label: invalid") return { kind: "label" };
  if (msg === "link: invalid") return { kind: "link" };
  if (msg === "entry: not found") return { kind: "gone" };
  if (msg === "pending: none") return { kind: "no-pending" };
  if (msg === "proof: too many attempts, try again later") return { kind: "proof-locked" };
  if (msg.startsWith("entries:")) return { kind: "full" };
  const row = /^addresses\[(\d+)\]: (.+)$/.exec(msg);
  if (row && ROW_PROBLEMS.has(row[2] ?? ""))
    return { kind: "row", index: Number(row[1]), problem: row[2] as AddressRowProblem };
  const beneficiary = /^beneficiary (type|name|country): invalid$/.exec(msg);
  if (beneficiary) return { kind: "beneficiary", field: beneficiary[1] as BeneficiaryProblem };
  const app = apiErrorKind(status, body);
  // A 400 the page does not know is its own bug or an old page against a newer exchange.
  return { kind: "app", app: app === "refused" ? "server" : app };
}

async function call(body: Record<string, unknown>): Promise<BookResult> {
  const reply = await authCall(PATH, body);
  if (reply.status !== 200) return { ok: false, error: bookErrorOf(reply.status, reply.body) };
  const book = addressBookCodec.decode(reply.body);
  return book ? { ok: true, book } : { ok: false, error: { kind: "app", app: "server" } };
}

/** The owner's proof for a change that lets money leave: the password, and the current code when 2FA is on. */
export interface Proof {
  readonly password: string;
  readonly code: string;
}

const proofBody = (p: Proof) => ({
  password: p.password,
  ...(p.code.trim() !== "" ? { currentToken: p.code.trim() } : {}),
});

export function listBook(): Promise<BookResult> {
  return call({ action: "list" });
}

export interface NewAddresses {
  readonly currency: string;
  readonly method: WithdrawalMethod;
  readonly label: string;
  readonly rows: readonly { readonly address: string; readonly paymentId: string }[];
  readonly beneficiary: Beneficiary;
}

export function addAddresses(a: NewAddresses, proof: Proof): Promise<BookResult> {
  return call({
    action: "add",
    currency: a.currency,
    method: a.method,
    label: a.label,
    addresses: a.rows.map((r) => ({
      address: r.address,
      ...(r.paymentId.trim() !== "" ? { payment_id: r.paymentId } : {}),
    })),
    beneficiary: a.beneficiary,
    ...proofBody(proof),
  });
}

export function renameEntry(id: number, label: string): Promise<BookResult> {
  return call({ action: "update", id, label });
}

export function deleteEntry(id: number): Promise<BookResult> {
  return call({ action: "delete", id });
}

export function confirmLink(token: string): Promise<BookResult> {
  return call({ action: "confirm", token });
}

/** Opening the mailed link of a loosening (`?apply=`): the waiting change applies. */
export function applyLink(token: string): Promise<BookResult> {
  return call({ action: "apply", token });
}

/** A loosening waiting for the mailed link: the whitelist off, or withdrawals on again. */
export type WaitingChange = "whitelist_off" | "enable";

/** Drops a loosening of `currency` that waits for the mailed link. */
export function cancelWaiting(currency: string, kind: WaitingChange): Promise<BookResult> {
  return call({ action: "cancel", currency, kind });
}

/** The whitelist on needs no proof (at once); off needs it and then the mailed link. */
export function setWhitelist(currency: string, on: boolean, proof: Proof | null): Promise<BookResult> {
  return call({ action: "whitelist", currency, on, ...(proof ? proofBody(proof) : {}) });
}

/** One currency's withdrawals (or all, `currency` null) off, or on again with the proof and then the mailed link. */
export function setWithdrawals(currency: string | null, enabled: boolean, proof: Proof | null): Promise<BookResult> {
  return call({
    action: "withdrawals",
    enabled,
    ...(currency !== null ? { currency } : {}),
    ...(proof ? proofBody(proof) : {}),
  });
}
