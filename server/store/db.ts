/**
 * Durable storage of the embedded exchange: SQLite through better-sqlite3, in WAL mode, so a write
 * the API acknowledged survives a killed process. Amounts are stored as integer units of 1e-8
 * (satoshi-style) so balances never accumulate binary rounding.
 */
import Database from "better-sqlite3";

export type Db = Database.Database;

export const UNIT = 1e8;
export const toUnits = (v: number): number => Math.round(v * UNIT);
export const fromUnits = (u: number): number => u / UNIT;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  username TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  email_verified INTEGER NOT NULL DEFAULT 0,
  verification_level INTEGER NOT NULL DEFAULT 0,
  tfa_secret TEXT,
  locale TEXT NOT NULL DEFAULT 'en',
  settings TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS tokens (
  token TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  expires_at INTEGER NOT NULL,
  caps TEXT NOT NULL DEFAULT 'null'
);
CREATE TABLE IF NOT EXISTS api_keys (
  key TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  secret TEXT NOT NULL,
  label TEXT NOT NULL,
  caps TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_nonce INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS wallets (
  user_id INTEGER NOT NULL REFERENCES users(id),
  type TEXT NOT NULL,
  currency TEXT NOT NULL,
  balance INTEGER NOT NULL,
  reserved INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, type, currency)
);
CREATE TABLE IF NOT EXISTS orders (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  cid INTEGER,
  symbol TEXT NOT NULL,
  type TEXT NOT NULL,
  side TEXT NOT NULL,
  price REAL,
  amount_orig INTEGER NOT NULL,
  remaining INTEGER NOT NULL,
  avg_price REAL NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  flags INTEGER NOT NULL DEFAULT 0,
  reserved INTEGER NOT NULL DEFAULT 0,
  mts_create INTEGER NOT NULL,
  mts_update INTEGER NOT NULL,
  open INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_open ON orders(open) WHERE open = 1;
CREATE TABLE IF NOT EXISTS trades (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  trade_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id),
  order_id INTEGER NOT NULL,
  symbol TEXT NOT NULL,
  mts INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  price REAL NOT NULL,
  order_type TEXT NOT NULL,
  order_price REAL,
  maker INTEGER NOT NULL,
  fee INTEGER NOT NULL,
  fee_currency TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ledgers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  currency TEXT NOT NULL,
  wallet TEXT NOT NULL,
  mts INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  balance INTEGER NOT NULL,
  description TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  recipient TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  mts INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS email_verifications (
  hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS feedback (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER,
  rating INTEGER,
  description TEXT NOT NULL,
  source TEXT NOT NULL,
  mts INTEGER NOT NULL
);
`;

export function openDb(path: string): Db {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  // NORMAL in WAL mode: a committed transaction survives the process being killed (not power loss).
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.exec(SCHEMA);
  migrate(db);
  cacheStatements(db);
  return db;
}

/**
 * Compiling SQL was 38 % of an order's placement (bench/README.md, "Embedded exchange"): every
 * `prepare` of a text seen before now returns the statement compiled the first time. Safe because
 * the server only runs statements to completion (`run`/`get`/`all`, never `iterate`) and never
 * switches a statement's mode (`pluck`, `raw`, `expand`), so a shared statement is never mid-use.
 */
function cacheStatements(db: Db): void {
  const compile = db.prepare.bind(db);
  const cache = new Map<string, ReturnType<typeof compile>>();
  const cached = (sql: string): ReturnType<typeof compile> => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = compile(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
  db.prepare = cached as typeof db.prepare;
}

/** Columns added after the first release: added in place to an older database file. */
const ADDED_COLUMNS: readonly [table: string, column: string, decl: string][] = [
  ["orders", "trigger_price", "REAL"],
  ["orders", "aux_price", "REAL"],
  ["orders", "trail", "REAL"],
  ["orders", "triggered", "INTEGER NOT NULL DEFAULT 0"],
  ["orders", "oco_peer", "INTEGER"],
  // The `on` input's group id (`oc_multi {gid}` cancels by it).
  ["orders", "gid", "INTEGER"],
  // The API key a token was minted with (directly or through another of its tokens): revoking or
  // narrowing the key reaches its tokens (accounts.ts). Tokens stored before have none; they end
  // within the hour a key-minted token may live.
  ["tokens", "api_key", "TEXT"],
  // The TOTP time step last accepted for the user (identity.ts): a code is good once, whichever
  // API host (public or authenticated) or process saw it.
  ["users", "tfa_last_step", "INTEGER NOT NULL DEFAULT -1"],
  // The sign-in session a session token belongs to (server/security.ts): its renewals carry it on,
  // so the security page lists sessions, not tokens, and can end every other one.
  ["tokens", "session_id", "INTEGER"],
  // An API key's IP allowlist (api-keys.ts): a JSON list of addresses and CIDR ranges; `[]` is any
  // address. In the key's own row, so a key is written whole or not at all.
  ["api_keys", "ip_allow", "TEXT NOT NULL DEFAULT '[]'"],
  // The account page's compliance answers and the freeze (server/compliance.ts): the US-person
  // answer (NULL until asked) gates deposits and margin; a frozen account signs nothing in.
  ["users", "us_resident", "INTEGER"],
  ["users", "frozen", "INTEGER NOT NULL DEFAULT 0"],
  ["users", "frozen_at", "INTEGER"],
  // A sub-account context token (server/subaccounts.ts): minted by the master for one of its
  // sub-accounts, it belongs to the master's sign-in session (`session_id`) and dies with it;
  // `context_read_only` 1 refuses every write made with it.
  ["tokens", "context_master", "INTEGER"],
  ["tokens", "context_read_only", "INTEGER NOT NULL DEFAULT 0"],
  // A mail encrypted to the account's PGP key (server/mail.ts): its row is written at once, in the
  // sender's transaction, and its body once encrypted (`pending` 1 until then, never listed).
  ["outbox", "pending", "INTEGER NOT NULL DEFAULT 0"],
  ["outbox", "encrypted", "INTEGER NOT NULL DEFAULT 0"],
];

/** Tables added after the first release, created on an older database file (IF NOT EXISTS). */
const ADDED_TABLES: readonly string[] = [
  // Sub-accounts (server/subaccounts.ts): the account's row in users, its master, its type and
  // whether its master may only look at it; and each group's setting (the master's id is the group).
  `CREATE TABLE IF NOT EXISTS subaccounts (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    master_id INTEGER NOT NULL REFERENCES users(id),
    type TEXT NOT NULL,
    read_only INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS subaccounts_master ON subaccounts(master_id);
  CREATE TABLE IF NOT EXISTS subaccount_groups (
    master_id INTEGER PRIMARY KEY REFERENCES users(id),
    disable_context_switch INTEGER NOT NULL DEFAULT 0
  );`,
  // An account's last KYC submission and its review (server/compliance.ts); data is the form's
  // fields as JSON. One row per account: a new submission replaces a rejected one.
  `CREATE TABLE IF NOT EXISTS kyc_submissions (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    kind TEXT NOT NULL,
    level INTEGER NOT NULL,
    data TEXT NOT NULL,
    status TEXT NOT NULL,
    submitted_at INTEGER NOT NULL,
    decided_at INTEGER,
    reason TEXT
  )`,
  // The code in the freeze link every mail to an account carries (server/mail.ts); one per account.
  `CREATE TABLE IF NOT EXISTS freeze_codes (
    code TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL UNIQUE REFERENCES users(id)
  )`,
  // Margin positions (exchange/positions.ts): amount signed in units, collateral in quote units.
  `CREATE TABLE IF NOT EXISTS positions (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    symbol TEXT NOT NULL,
    status TEXT NOT NULL,
    amount INTEGER NOT NULL,
    base_price REAL NOT NULL,
    collateral INTEGER NOT NULL DEFAULT 0,
    mts_create INTEGER NOT NULL,
    mts_update INTEGER NOT NULL,
    open INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS positions_open ON positions(open) WHERE open = 1;`,
  // The security page's records (server/security.ts): sign-in sessions (a session's tokens carry
  // its id), the login history, and hardware keys (WebAuthn credentials: public key, signature
  // counter, the relying party — the site's host name — they were registered for).
  `CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,
    address TEXT,
    agent TEXT NOT NULL DEFAULT ''
  );
  CREATE TABLE IF NOT EXISTS login_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id),
    mts INTEGER NOT NULL,
    address TEXT,
    agent TEXT NOT NULL DEFAULT '',
    outcome TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS login_history_user ON login_history(user_id, mts);
  CREATE TABLE IF NOT EXISTS webauthn_keys (
    id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    public_key BLOB NOT NULL,
    counter INTEGER NOT NULL,
    transports TEXT NOT NULL DEFAULT '[]',
    rp_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_used INTEGER
  );`,
  // SMS as a second factor (server/sms.ts): the number it is on for, the codes texted (one per
  // account and purpose, stored as a hash), the development SMS outbox (`GET /dev/sms`), and the
  // wrong codes of the last minutes (the account's attempt limit, on both API hosts).
  `CREATE TABLE IF NOT EXISTS sms_factors (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    phone TEXT NOT NULL,
    country_code TEXT NOT NULL,
    enabled_at INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS sms_codes (
    user_id INTEGER NOT NULL REFERENCES users(id),
    purpose TEXT NOT NULL,
    phone TEXT NOT NULL,
    country_code TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    tries INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, purpose)
  );
  CREATE TABLE IF NOT EXISTS sms_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id),
    purpose TEXT NOT NULL,
    recipient TEXT NOT NULL,
    body TEXT NOT NULL,
    mts INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS sms_outbox_user ON sms_outbox(user_id, mts);
  CREATE TABLE IF NOT EXISTS sms_failures (
    user_id INTEGER NOT NULL REFERENCES users(id),
    mts INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS sms_failures_user ON sms_failures(user_id, mts);`,
  // The account's OpenPGP public keys (server/pgp.ts): pending until the code mailed encrypted to
  // the key confirms it, then active (every mail to the account is encrypted to it), removed after.
  `CREATE TABLE IF NOT EXISTS pgp_keys (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id),
    fingerprint TEXT NOT NULL,
    armored TEXT NOT NULL,
    user_ids TEXT NOT NULL,
    algorithm TEXT NOT NULL,
    key_created INTEGER NOT NULL,
    expires_at INTEGER,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    changed_at INTEGER NOT NULL,
    confirm_hash TEXT,
    confirm_expires INTEGER,
    tries INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX IF NOT EXISTS pgp_keys_user ON pgp_keys(user_id, status);`,
  // The security settings (server/security-settings.ts): one row per changed setting (absent: its
  // default), the changes that wait for the owner's mailed confirmation (only a hash of the link's
  // token is kept), and the sign-ins from a new address waiting for theirs. Every sign-in asks
  // whether its address is one of the account's sessions': sessions get an index by account.
  `CREATE TABLE IF NOT EXISTS security_settings (
    user_id INTEGER NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (user_id, name)
  );
  CREATE TABLE IF NOT EXISTS security_changes (
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    decided_at INTEGER
  );
  CREATE INDEX IF NOT EXISTS security_changes_user ON security_changes(user_id, state);
  CREATE TABLE IF NOT EXISTS login_confirmations (
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    address TEXT NOT NULL,
    agent TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    decided_at INTEGER
  );
  CREATE INDEX IF NOT EXISTS login_confirmations_user ON login_confirmations(user_id, address, state);
  CREATE INDEX IF NOT EXISTS sessions_user ON sessions(user_id, address);`,
];

function migrate(db: Db): void {
  addColumns(db, ADDED_COLUMNS);
  for (const ddl of ADDED_TABLES) db.exec(ddl);
  splitPositionsCap(db);
  sessionTokenCaps(db);
}

/**
 * API keys got a positions capability `p` of their own (api-keys.ts); before, `o` granted the
 * positions calls too. Keys stored before keep what they could do: `o` gains `p`, `o:r` gains
 * `p:r` — once per database file.
 */
function splitPositionsCap(db: Db): void {
  if (db.prepare("SELECT v FROM meta WHERE k = 'caps_p'").get()) return;
  const keys = db.prepare("SELECT key, caps FROM api_keys").all() as { key: string; caps: string }[];
  for (const k of keys) {
    const caps = JSON.parse(k.caps) as string[];
    const add = caps.includes("o") ? "p" : caps.includes("o:r") ? "p:r" : null;
    if (add && !caps.includes("p") && !caps.includes("p:r"))
      db.prepare("UPDATE api_keys SET caps = ? WHERE key = ?").run(JSON.stringify([...caps, add]), k.key);
  }
  db.prepare("INSERT INTO meta (k, v) VALUES ('caps_p', '1')").run();
}

/**
 * Tokens' `caps` became meaningful (accounts.ts): JSON `null` for a session's own token, a list for
 * a token limited to a key's capabilities. Every token stored before was a full session token
 * (written with the column's old default `[]`, which now means "nothing"): once per database file.
 */
function sessionTokenCaps(db: Db): void {
  if (db.prepare("SELECT v FROM meta WHERE k = 'token_caps'").get()) return;
  db.prepare("UPDATE tokens SET caps = 'null' WHERE caps = '[]'").run();
  db.prepare("INSERT INTO meta (k, v) VALUES ('token_caps', '1')").run();
}

/** Adds the columns an older database file lacks (a module's own migration step for its tables). */
export function addColumns(db: Db, columns: readonly (readonly [table: string, column: string, decl: string])[]): void {
  for (const [table, column, decl] of columns) {
    const cols = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
    if (!cols.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${decl}`);
  }
}

/** The next id of a sequence kept in `meta` (order ids must not repeat across restarts). */
export function nextIdFrom(db: Db, name: string, floor: number): () => number {
  const row = db.prepare("SELECT v FROM meta WHERE k = ?").get(name) as { v: string } | undefined;
  let next = Math.max(floor, row ? Number(row.v) : 0);
  const save = db.prepare("INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v");
  return () => {
    next++;
    save.run(name, String(next));
    return next;
  };
}

/**
 * A user's rows for a history call: `SELECT * FROM <from>` (a table and its conditions, `?` being
 * the user), narrowed to `column = value` when a value is given, in `order`, at most `limit`.
 */
export function historyRows<T>(
  db: Db,
  from: string,
  userId: number,
  narrow: readonly [column: string, value: string | null],
  order: string,
  limit: number,
): T[] {
  const [column, value] = narrow;
  return db
    .prepare(`SELECT * FROM ${from} ${value ? `AND ${column} = ?` : ""} ORDER BY ${order} LIMIT ?`)
    .all(...(value ? [userId, value, limit] : [userId, limit])) as T[];
}
