/**
 * The desk on a phone (docs/product-rules.md#phone-desk): one column of tabs — chart, book, trades,
 * order form, account — instead of the grid, which at 390 px squeezed every widget into unreadable
 * columns. The tabs show the grid's own widgets under the default layout's keys, so the phone's
 * chart keeps the timeframe its desktop twin chose.
 */
import { useLingui } from "@lingui/react/macro";
import { Activity, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { subscribeKey } from "valtio/utils";
import { tradingSymbol, widgetKey } from "../../../protocol";
import { appScheduler } from "../../scheduler";
import { orderDraft } from "../desk-state";
import { deskOffers } from "../features";
import { WIDGETS_BY_TYPE } from "../registry";
import * as css from "./phone-desk.css";
import {
  DEFAULT_PHONE_TAB,
  knownPhoneTab,
  loadPhoneTab,
  PHONE_TABS,
  savePhoneTab,
  tabForKey,
  type PhoneTab,
} from "./phone-tabs";

/** The grid widgets each tab shows (the account tab stacks several). */
const TAB_WIDGETS: Readonly<Record<PhoneTab, readonly string[]>> = {
  chart: ["chart"],
  book: ["book"],
  trades: ["trades"],
  form: ["order-form"],
  // The perpetual's status sits by the positions it funds (offered only with derivatives).
  account: ["orders", "positions", "deriv-status", "margin", "balances"],
};

/** A tab's widgets the platform variant offers (no positions or margin info without margin). */
function offeredTypes(tab: PhoneTab): readonly string[] {
  return TAB_WIDGETS[tab].filter((type) => {
    const def = WIDGETS_BY_TYPE.get(type);
    return def !== undefined && (def.feature === undefined || deskOffers(def.feature));
  });
}

export function PhoneDesk({ pair }: { readonly pair: string }) {
  const { t, i18n } = useLingui();
  const [tab, setTab] = useState<PhoneTab | undefined>(knownPhoneTab);
  const root = useRef<HTMLDivElement>(null);
  const tabRefs = useRef(new Map<PhoneTab, HTMLButtonElement>());
  const formPanel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    void loadPhoneTab().then((stored) => live && setTab((now) => now ?? stored));
    return () => {
      live = false;
    };
  }, []);

  const select = (next: PhoneTab): void => {
    savePhoneTab(next);
    setTab(next);
  };

  // A tap on a book level or a trade (or an order-form shortcut) writes the shared draft: show the
  // form it filled. The form is always mounted (below), so its own listener on the same change has
  // the fields filled and focused in the render that reveals it.
  useEffect(
    () =>
      subscribeKey(orderDraft, "seq", () => {
        savePhoneTab("form");
        setTab("form");
      }),
    [],
  );

  // The panels are as tall as the visual viewport (less the sticky tabs): when the on-screen keyboard
  // opens, the visual viewport shrinks while `dvh` does not on most phones, so the order form would
  // run under the keyboard. Sized to what is visible, the form scrolls inside its panel and its
  // submit button stays reachable above the keyboard. A resize event, never a tick: React is not
  // involved, the property is written directly.
  useEffect(() => {
    const vv = window.visualViewport;
    const el = root.current;
    if (!vv || !el) return;
    const timers = appScheduler.child();
    const apply = (): void => {
      el.style.setProperty(css.VIEWPORT_HEIGHT_PROPERTY, `${Math.round(vv.height)}px`);
      // Typing in the form while the keyboard came up: bring the whole (now shorter) panel into
      // view, once the new height is laid out, so the focused field and the submit button are both
      // on screen rather than the page scrolled to the field alone.
      const panel = formPanel.current;
      if (panel && panel.contains(document.activeElement)) {
        timers.frame(() => panel.scrollIntoView({ block: "end" }));
      }
    };
    apply();
    vv.addEventListener("resize", apply);
    return () => {
      vv.removeEventListener("resize", apply);
      timers.dispose();
    };
  }, []);

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>, current: PhoneTab): void => {
    const next = tabForKey(current, e.key);
    if (!next) return;
    e.preventDefault();
    // Automatic activation: moving to a tab shows it (each panel is cheap to reveal).
    select(next);
    tabRefs.current.get(next)?.focus();
  };

  const label = (x: PhoneTab): string => {
    if (x === "account") return t`Account`;
    const def = WIDGETS_BY_TYPE.get(TAB_WIDGETS[x][0] ?? "");
    return def ? i18n._(def.title) : x;
  };

  const widget = (type: string): ReactNode => {
    const def = WIDGETS_BY_TYPE.get(type);
    if (!def) return null;
    const Widget = def.component;
    return <Widget widgetKey={widgetKey(type, "main")} pair={pair} symbol={tradingSymbol(pair)} />;
  };

  const shown = tab ?? DEFAULT_PHONE_TAB;

  return (
    <div ref={root} className={css.phone} data-testid="desk-phone">
      <div role="tablist" aria-label={t`Trading desk`} className={css.tabs}>
        {PHONE_TABS.map((x) => (
          <button
            key={x}
            ref={(el) => {
              if (el) tabRefs.current.set(x, el);
              else tabRefs.current.delete(x);
            }}
            type="button"
            role="tab"
            id={`desk-phone-tab-${x}`}
            aria-controls={`desk-phone-panel-${x}`}
            aria-selected={x === shown}
            tabIndex={x === shown ? 0 : -1}
            className={css.tab}
            onClick={() => select(x)}
            onKeyDown={(e) => onTabKey(e, x)}
          >
            {label(x)}
          </button>
        ))}
      </div>
      {PHONE_TABS.map((x) => {
        const visible = tab === x;
        const types = offeredTypes(x);
        const content =
          types.length === 1 ? (
            widget(types[0] ?? "")
          ) : (
            <div className={css.stack}>
              {types.map((type) => {
                const def = WIDGETS_BY_TYPE.get(type);
                return (
                  <section key={type} className={css.stackItem} aria-labelledby={`desk-phone-heading-${type}`}>
                    <h2 id={`desk-phone-heading-${type}`} className={css.stackTitle}>
                      {def ? i18n._(def.title) : type}
                    </h2>
                    <div className={css.stackBody}>{widget(type)}</div>
                  </section>
                );
              })}
            </div>
          );
        return (
          <div
            key={x}
            ref={x === "form" ? formPanel : undefined}
            role="tabpanel"
            id={`desk-phone-panel-${x}`}
            aria-labelledby={`desk-phone-tab-${x}`}
            hidden={!visible}
            tabIndex={0}
            className={x === "form" ? css.formPanel : css.panel}
            data-testid={`desk-phone-panel-${x}`}
          >
            {x === "form" ? (
              // The form stays mounted while hidden: it holds what the user typed, and it must hear
              // a book tap's fill while another tab is shown. It paints nothing per tick.
              content
            ) : (
              // Market and account panels behind another tab are in a hidden Activity: React keeps
              // their state (timeframe, book settings, scroll) but runs their effects' cleanups, so a
              // hidden book, tape or chart neither subscribes to the worker nor paints a frame. Shown
              // again, their effects subscribe afresh and the worker's first view is the current
              // book, tape or candles, so nothing stale is ever drawn.
              <Activity mode={visible ? "visible" : "hidden"}>{tab === undefined ? null : content}</Activity>
            )}
          </div>
        );
      })}
    </div>
  );
}
