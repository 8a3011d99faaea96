/**
 * The money property tests' checks (server/exchange/money-property.test.ts), over every test
 * account as the exchange answers them, each returning the problems it found (none: it holds).
 *
 * Isolation from the simulator: the exchange runs with its simulated agents frozen (never stepped:
 * no quote moves, no taker), and every order of the test accounts is priced strictly inside the
 * simulator's spread (money-world.ts `moneyMarkets`), so it can only meet another test account's
 * order. `checkMoney` proves it held — every trade must have both of its sides among the test
 * accounts — so conservation needs no term for the simulator. Per currency: Σ balances + Σ trading
 * fees + Σ withdrawn + Σ converted from it = Σ deposits credited + Σ received by conversions into it
 * (a conversion's fee is what its rate gave less what was received: it never reaches a wallet).
 */
import {
  LEDGER_CATEGORY,
  ledgerCategoryOf,
  unitsToDecimal,
  type AuthTrade,
  type LedgerEntry,
} from "../../src/protocol/index.ts";
import { call, pairOf, readBooks, sendDeposit, units, type AccountBooks, type MoneyWorld } from "./money-world.ts";

/** Per currency, in units. */
type Sums = Map<string, number>;
const add = (s: Sums, k: string, v: number): void => void s.set(k, (s.get(k) ?? 0) + v);

function push<K, V>(m: Map<K, V[]>, k: K, ...v: V[]): void {
  const list = m.get(k);
  if (list) list.push(...v);
  else m.set(k, v);
}

/**
 * The invariants over every test account, as problems found (none: they hold):
 * - each wallet's balance is the sum of its ledger rows (paged `r/ledgers/hist`), its rows chain
 *   (each row's balance the one before plus its amount) and `r/ledgers/reconcile` agrees;
 * - no balance, available amount or reservation below zero or a reservation above its balance,
 *   and the exchange wallets reserve what the open orders need (a buy's reservation may be off by
 *   its fills' rounding, a unit each);
 * - every deposit COMPLETED has exactly one ledger row, of its amount; one not completed has none;
 * - every withdrawal has its debit row (the withdrawals' debit rows are what they asked for) and a
 *   cancelled one exactly one refund row, of the same amount; one not cancelled none;
 * - every conversion is two rows, what left and what arrived, with the figures its text states,
 *   and each acknowledged one has the figures of its reply;
 * - every trade has both sides among the test accounts (the isolation from the simulator);
 * - the trading fee ledger rows are the fees of the trades;
 * - per currency: Σ balances + Σ trading fees + Σ withdrawn + Σ converted away = Σ deposits
 *   credited + Σ converted in.
 * Margin positions and funding are not in the stream, so no wallet may go below zero at all.
 */
export async function checkMoney(w: MoneyWorld): Promise<{ problems: string[]; books: AccountBooks[] }> {
  const problems: string[] = [];
  const books = await Promise.all(w.accounts.map((a) => readBooks(w, a)));
  const balances: Sums = new Map();
  const fees: Sums = new Map();
  const feeRows: Sums = new Map();
  const credited: Sums = new Map();
  const withdrawn: Sums = new Map();
  const convertedOut: Sums = new Map();
  const convertedIn: Sums = new Map();
  const sides = new Map<number, AuthTrade[]>();
  for (const b of books) {
    const who = b.account.name;
    const chains = new Map<string, LedgerEntry[]>();
    const described = new Map<string, LedgerEntry[]>();
    for (const l of b.ledgers) {
      const k = `${l.wallet ?? ""}:${l.currency}`;
      push(chains, k, l);
      push(described, l.description ?? "", l);
    }
    // A deposit's row names its movement last (`Deposit (Bitcoin) #12`).
    const depositRows = new Map<string, LedgerEntry[]>();
    for (const [text, rows] of described) {
      const id = /^Deposit\b.*#(\d+)$/.exec(text)?.[1];
      if (id) push(depositRows, id, ...rows);
    }
    for (const [k, rows] of chains) {
      let sum = 0;
      for (const l of rows.sort((x, y) => x.id - y.id)) {
        sum += units(l.amount);
        if (l.balance === null || units(l.balance) !== sum)
          problems.push(
            `${who} ${k}: ledger row ${l.id} balance ${String(l.balance)} after a running sum of ${sum / 1e8}`,
          );
      }
      if (!b.wallets.some((x) => `${x.type}:${x.currency}` === k) && sum !== 0)
        problems.push(`${who} ${k}: ledger rows sum to ${sum} units with no wallet`);
    }
    for (const x of b.wallets) {
      const k = `${x.type}:${x.currency}`;
      const sum = (chains.get(k) ?? []).reduce((s, l) => s + units(l.amount), 0);
      if (sum !== units(x.balance)) problems.push(`${who} ${k}: balance ${x.balance}, ledger rows sum to ${sum / 1e8}`);
      const rec = b.reconcile.find((c) => c.currency === x.currency && c.wallet === x.type);
      if (!rec || !rec.chained || units(rec.balance) !== units(x.balance) || rec.rows !== (chains.get(k) ?? []).length)
        problems.push(`${who} ${k}: reconcile ${JSON.stringify(rec)} for balance ${x.balance}`);
      const reserved = units(x.balance) - units(x.available);
      if (x.balance < 0 || x.available < 0 || reserved < 0)
        problems.push(`${who} ${k}: balance ${x.balance}, available ${x.available}`);
      add(balances, x.currency, units(x.balance));
    }
    for (const rec of b.reconcile)
      if (!rec.chained)
        problems.push(`${who} ${rec.wallet}:${rec.currency}: reconcile breaks at ${String(rec.breakId)}`);
    problems.push(...reservations(b));
    // Deposits and withdrawals: the movements, each credited deposit with its one ledger row.
    const asks: Sums = new Map();
    const debits: Sums = new Map();
    for (const m of b.movements) {
      if (m.amount > 0) {
        const rows = depositRows.get(String(m.id)) ?? [];
        const done = m.status === "COMPLETED";
        if (done) add(credited, m.currency, units(m.amount));
        if (rows.length !== (done ? 1 : 0) || (done && units(rows[0]?.amount ?? 0) !== units(m.amount)))
          problems.push(
            `${who} deposit #${m.id} ${m.status} of ${m.amount} ${m.currency} has ledger rows ${JSON.stringify(rows)}`,
          );
        continue;
      }
      // A withdrawal: its debit (the amount asked for, fee included) and, once cancelled, one refund.
      const asked = -units(m.amount) - units(m.fees ?? 0);
      const refunds = described.get(`Canceled withdrawal #${m.id}`) ?? [];
      const canceled = m.status === "CANCELED";
      if (!canceled) add(withdrawn, m.currency, asked);
      if (refunds.length !== (canceled ? 1 : 0) || (canceled && units(refunds[0]?.amount ?? 0) !== asked))
        problems.push(
          `${who} withdrawal #${m.id} ${m.status} of ${asked} units has refunds ${JSON.stringify(refunds)}`,
        );
      add(asks, m.currency, asked);
    }
    // Every withdrawal's debit row, and no other: as many rows and as much as the withdrawals asked for.
    for (const l of b.ledgers)
      if (ledgerCategoryOf(l.description) === LEDGER_CATEGORY.WITHDRAWAL && l.amount < 0)
        add(debits, l.currency, -units(l.amount));
    for (const c of new Set([...asks.keys(), ...debits.keys()]))
      if ((asks.get(c) ?? 0) !== (debits.get(c) ?? 0))
        problems.push(
          `${who} ${c}: withdrawals asked for ${asks.get(c) ?? 0} units, their ledger rows debit ${debits.get(c) ?? 0}`,
        );
    for (const t of b.trades) {
      if (t.fee_currency) add(fees, t.fee_currency, -units(t.fee ?? 0));
      push(sides, t.id, t);
    }
    for (const l of b.ledgers)
      if (ledgerCategoryOf(l.description) === LEDGER_CATEGORY.TRADING_FEE) add(feeRows, l.currency, -units(l.amount));
    problems.push(...conversionRows(w, b, convertedOut, convertedIn));
  }
  for (const [id, s] of sides) {
    const [x, y] = s;
    if (s.length !== 2 || !x || !y || units(x.exec_amount) !== -units(y.exec_amount) || x.exec_price !== y.exec_price)
      problems.push(`trade ${id} is not one test account's buy and another's sell: ${JSON.stringify(s)}`);
  }
  const currencies = new Set([
    ...balances.keys(),
    ...fees.keys(),
    ...credited.keys(),
    ...withdrawn.keys(),
    ...feeRows.keys(),
    ...convertedOut.keys(),
    ...convertedIn.keys(),
  ]);
  for (const c of currencies) {
    const held = balances.get(c) ?? 0;
    const fee = fees.get(c) ?? 0;
    const out = withdrawn.get(c) ?? 0;
    const inn = credited.get(c) ?? 0;
    const from = convertedOut.get(c) ?? 0;
    const into = convertedIn.get(c) ?? 0;
    if (held + fee + out + from !== inn + into)
      problems.push(
        `${c}: balances ${held} + fees ${fee} + withdrawn ${out} + converted away ${from} = ${held + fee + out + from} units, deposits credited ${inn} + converted in ${into} = ${inn + into}`,
      );
    if ((feeRows.get(c) ?? 0) !== fee)
      problems.push(`${c}: trading fee ledger rows ${feeRows.get(c) ?? 0} units, trades' fees ${fee}`);
  }
  return { problems, books };
}

const CONVERSION_TEXT =
  /^Currency conversion of ([0-9.e+-]+) ([A-Z0-9]+) to ([0-9.e+-]+) ([A-Z0-9]+) at [0-9.e+-]+ \(fee [0-9.e+-]+ [A-Z0-9]+\) #([0-9a-f]+)$/;

/**
 * An account's conversions as its ledger has them: each one two rows with one description — what
 * left in one currency, what arrived in the other, the figures its text states — and every
 * acknowledged conversion among them with the figures of its reply. Adds each to the sums.
 */
function conversionRows(w: MoneyWorld, b: AccountBooks, out: Sums, into: Sums): string[] {
  const problems: string[] = [];
  const groups = new Map<string, LedgerEntry[]>();
  for (const l of b.ledgers)
    if (ledgerCategoryOf(l.description) === LEDGER_CATEGORY.CONVERSION) push(groups, l.description ?? "", l);
  const seen = new Map<string, { amount: number; receive: number }>();
  for (const [text, rows] of groups) {
    const m = CONVERSION_TEXT.exec(text);
    const gave = rows.find((l) => l.amount < 0);
    const got = rows.find((l) => l.amount > 0);
    if (!m || rows.length !== 2 || !gave || !got) {
      problems.push(`${b.account.name}: conversion rows ${JSON.stringify(rows)}`);
      continue;
    }
    const [, amount, from, receive, to, id] = m as unknown as [string, string, string, string, string, string];
    if (
      gave.currency !== from ||
      got.currency !== to ||
      -units(gave.amount) !== units(Number(amount)) ||
      units(got.amount) !== units(Number(receive))
    )
      problems.push(`${b.account.name}: conversion rows ${JSON.stringify(rows)} are not what they say`);
    add(out, gave.currency, -units(gave.amount));
    add(into, got.currency, units(got.amount));
    seen.set(id, { amount: -units(gave.amount), receive: units(got.amount) });
  }
  for (const c of w.journal.conversions) {
    if (c.account.id !== b.account.id) continue;
    const rows = seen.get(c.quote.slice(0, 8));
    if (!rows || rows.amount !== c.amount || rows.receive !== c.receive)
      problems.push(
        `${b.account.name}: acknowledged conversion ${c.quote} of ${c.amount} → ${c.receive} has rows ${JSON.stringify(rows)}`,
      );
  }
  return problems;
}

/** The exchange wallets' reservations against what the open orders hold. */
function reservations(b: AccountBooks): string[] {
  const want: Sums = new Map();
  const slack: Sums = new Map();
  for (const o of b.open) {
    const [base, quote] = pairOf(o.symbol);
    const left = units(Math.abs(o.amount));
    if (o.amount < 0) add(want, base, left);
    else {
      add(want, quote, Math.round((left / 1e8) * (o.price ?? 0) * 1e8));
      // Each fill releases its own rounded share of a buy's reservation: a unit of slack per fill, and
      // one for the whole.
      add(slack, quote, 1 + b.trades.filter((t) => t.order_id === o.id).length);
    }
  }
  const out: string[] = [];
  for (const x of b.wallets) {
    if (x.type !== "exchange") {
      if (x.available !== x.balance)
        out.push(`${b.account.name} ${x.type}:${x.currency}: ${x.balance - x.available} reserved with no order`);
      continue;
    }
    const reserved = units(x.balance) - units(x.available);
    const need = want.get(x.currency) ?? 0;
    if (Math.abs(reserved - need) > (slack.get(x.currency) ?? 0))
      out.push(`${b.account.name} exchange:${x.currency}: ${reserved} units reserved, open orders hold ${need}`);
  }
  return out;
}

/**
 * After a restart: everything the exchange acknowledged before the kill is there — each deposit
 * recorded (and, when seen credited, still credited with its ledger row), each transfer (sent again
 * with its request id it answers the first reply: the id was stored with the money moved), each
 * order with at least the fills its last reply showed, and no order whose cancellation was
 * acknowledged still open.
 */
export async function checkAcknowledged(w: MoneyWorld, books: readonly AccountBooks[]): Promise<string[]> {
  const problems: string[] = [];
  const byId = new Map(books.map((b) => [b.account.id, b]));
  for (const d of w.journal.deposits.values()) {
    const b = byId.get(d.account);
    const m = b?.movements.find((x) => x.id === d.id);
    if (!m || units(m.amount) !== d.units) problems.push(`acknowledged deposit #${d.id} is ${JSON.stringify(m)}`);
    else if (d.credited && m.status !== "COMPLETED") problems.push(`deposit #${d.id} was credited, now ${m.status}`);
  }
  for (const x of w.journal.withdrawals.values()) {
    const m = byId.get(x.account)?.movements.find((y) => y.id === x.id);
    const status = m?.status ?? "missing";
    const asked = m ? -units(m.amount) - units(m.fees ?? 0) : 0;
    // What the acknowledged steps leave possible (an operation a kill cut may have taken it further).
    const expected =
      x.canceled || x.status === "CANCELED"
        ? ["CANCELED"]
        : x.status === "COMPLETED"
          ? ["COMPLETED"]
          : x.status === "PROCESSING"
            ? ["PROCESSING", "COMPLETED"]
            : x.confirmed || x.status === "PENDING"
              ? ["PENDING", "PROCESSING", "COMPLETED", "CANCELED"]
              : ["UNCONFIRMED", "PENDING", "PROCESSING", "COMPLETED", "CANCELED"];
    if (asked !== x.units || !expected.includes(status))
      problems.push(`acknowledged withdrawal ${x.id} (${x.status}, ${x.units} units) is now ${status}, ${asked} units`);
  }
  for (const t of w.journal.transfers) {
    const reply = await call(w, t.account, "/v2/auth/w/transfer", t.body);
    if (JSON.stringify(reply.body) !== JSON.stringify(t.reply))
      problems.push(
        `acknowledged transfer ${JSON.stringify(t.body)} after the restart answers ${JSON.stringify(reply.body)}`,
      );
  }
  for (const c of w.journal.conversions) {
    const reply = await call(w, c.account, "/v2/auth/w/int/convert", { quote: c.quote });
    if (JSON.stringify(reply.body) !== JSON.stringify(c.reply))
      problems.push(`acknowledged conversion ${c.quote} after the restart answers ${JSON.stringify(reply.body)}`);
  }
  for (const o of w.journal.orders.values()) {
    const b = byId.get(o.account);
    const filled = (b?.trades ?? [])
      .filter((t) => t.order_id === o.id)
      .reduce((s, t) => s + Math.abs(units(t.exec_amount)), 0);
    if (filled < o.executed)
      problems.push(`order ${o.id} had ${o.executed} units executed, its trades now hold ${filled}`);
    if (o.canceled && b?.open.some((x) => x.id === o.id))
      problems.push(`order ${o.id} was cancelled and is open again`);
  }
  // A chain transaction acknowledged before the kill, sent again after it: still one deposit.
  const repeat = [...w.journal.deposits.values()].find((d) => d.txId !== null);
  if (repeat) {
    const again = await sendDeposit(w, {
      method: repeat.method,
      address: repeat.address,
      amount: unitsToDecimal(repeat.units),
      tx_id: repeat.txId,
    });
    if (again.status !== 409) problems.push(`deposit tx ${repeat.txId ?? ""} after the restart: ${again.status}`);
  }
  return problems;
}
