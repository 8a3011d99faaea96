/**
 * bench:ui's side-by-side page: 8 order books of one implementation on the market worker's stress
 * book (tSTRESS), fed by ONE real market worker through the app's bridge, in a 4×2 grid of
 * desk-sized boxes. Query: impl=orderflow|lab49, intensity=0..3 (STRESS_INTENSITIES),
 * multiplier=1|10|100|1000, and for lab49 rows=N levels a side (default: as many as the desk's book
 * shows; 250, the whole book in a scrolling box, is what ours offers by scrolling), books=1..16 (default
 * 8; bench:ui's books-on-screen curve). `document.body.dataset.ready` is set once the books are mounted.
 */
import { I18nProvider } from "@lingui/react";
import { createRoot } from "react-dom/client";
import { STRESS_INTENSITIES } from "../../src/protocol";
import { OrderBook as OrderflowBook } from "../../src/ui/desk/widgets/book/OrderBook";
import { MarketSourceContext } from "../../src/ui/desk/widgets/book/market-source";
import { activateLocale, i18n } from "../../src/ui/i18n";
import { createMarketBridge } from "../../src/ui/market/bridge";
import { applyTheme } from "../../src/ui/theme/theme";
import { Lab49Book } from "./Lab49Book";
import * as css from "./peer-book.css";

/**
 * A desk book's box in bench:ui's layout (6 of 24 columns, 14 grid rows at 1920×1080), measured on
 * /tradedesk: 468×302 px, of which the list takes 233 px, i.e. 12 rows of 20 px a side (the last one
 * partly) side by side.
 */
const BOOK_WIDTH = 468;
const BOOK_HEIGHT = 302;
const ROWS = 12;
const BOOKS = 8;
const MAX_BOOKS = 16;

const params = new URLSearchParams(window.location.search);
const impl = params.get("impl") === "lab49" ? "lab49" : "orderflow";
const intensity = STRESS_INTENSITIES[Number(params.get("intensity") ?? 3)] ?? STRESS_INTENSITIES[3];
const rows = Math.max(1, Math.min(250, Math.trunc(Number(params.get("rows") ?? ROWS)) || ROWS));
const bookCount = Math.max(1, Math.min(MAX_BOOKS, Math.trunc(Number(params.get("books") ?? BOOKS)) || BOOKS));
const multiplier = [1, 10, 100, 1000].includes(Number(params.get("multiplier"))) ? Number(params.get("multiplier")) : 1;

async function boot(): Promise<void> {
  if (!intensity) throw new Error("no stress intensity");
  await activateLocale("en");
  applyTheme(document.documentElement, { name: "default", mode: "dark", scheme: "default" }, true);
  const bridge = createMarketBridge();
  // The stress book lives in the worker and never opens the public socket; configure() is still
  // required before any subscription, so it gets an address nothing listens on.
  await bridge.configure({ wsPublic: "ws://127.0.0.1:9/unused" });
  await bridge.stress({ intervalMs: intensity.intervalMs, count: intensity.count * multiplier });
  const root = document.getElementById("root");
  if (!root) throw new Error("no #root");
  const books = Array.from({ length: bookCount }, (_, i) => (
    <div key={i} className={css.cell} style={{ width: BOOK_WIDTH, height: BOOK_HEIGHT }}>
      {impl === "lab49" ? (
        <Lab49Book source={bridge} rows={rows} />
      ) : (
        <OrderflowBook widgetKey={`widget/book/b${i}`} pair="STRESS" symbol="tSTRESS" />
      )}
    </div>
  ));
  createRoot(root).render(
    <I18nProvider i18n={i18n}>
      <MarketSourceContext value={bridge}>
        <div className={css.grid} style={{ gridTemplateColumns: `repeat(4, ${BOOK_WIDTH}px)` }}>
          {books}
        </div>
      </MarketSourceContext>
    </I18nProvider>,
  );
  document.body.dataset["impl"] = impl;
  document.body.dataset["ready"] = "1";
}

void boot();
