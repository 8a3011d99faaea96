/**
 * The funding desk on a phone (docs/product-rules.md#phone-desk, as the trading desk's): one column
 * of tabs — chart, book, trades, then the offer form and the account's widgets when there are
 * any — over the grid's own widgets. A hidden market panel sits in a hidden React `Activity`, so it
 * neither subscribes nor paints until shown.
 */
import { useLingui } from "@lingui/react/macro";
import { Activity, useRef, useState, type KeyboardEvent } from "react";
import { widgetKey } from "../../protocol";
import * as css from "../desk/phone/phone-desk.css";
import type { WidgetDef } from "../desk/widget";
import { FUNDING_ACCOUNT_WIDGETS } from "./account";
import { fundingSymbol } from "./funding-paths";
import { FUNDING_MARKET_WIDGETS, OFFER_FORM_TYPE } from "./registry";

interface PhoneTab {
  readonly id: string;
  /** The tab's name: its only widget's title, or "Account" for the account's widgets together. */
  readonly widgets: readonly WidgetDef[];
}

/** The tabs: one per market widget, the offer form's own, the other account widgets together. */
export function fundingPhoneTabs(account: readonly WidgetDef[] = FUNDING_ACCOUNT_WIDGETS): PhoneTab[] {
  const form = account.filter((w) => w.type === OFFER_FORM_TYPE);
  const rest = account.filter((w) => w.type !== OFFER_FORM_TYPE);
  return [
    ...FUNDING_MARKET_WIDGETS.map((w) => ({ id: w.type, widgets: [w] })),
    ...(form.length > 0 ? [{ id: OFFER_FORM_TYPE, widgets: form }] : []),
    ...(rest.length > 0 ? [{ id: "account", widgets: rest }] : []),
  ];
}

export function FundingPhone({ currency }: { readonly currency: string }) {
  const { t, i18n } = useLingui();
  const tabs = fundingPhoneTabs();
  const [shown, setShown] = useState(tabs[0]?.id ?? "");
  const tabRefs = useRef(new Map<string, HTMLButtonElement>());

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>, at: number): void => {
    const n = tabs.length;
    const to =
      e.key === "ArrowRight"
        ? (at + 1) % n
        : e.key === "ArrowLeft"
          ? (at - 1 + n) % n
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? n - 1
              : -1;
    const next = tabs[to];
    if (!next) return;
    e.preventDefault();
    setShown(next.id);
    tabRefs.current.get(next.id)?.focus();
  };

  const label = (tab: PhoneTab): string =>
    tab.widgets.length === 1 && tab.widgets[0] ? i18n._(tab.widgets[0].title) : t`Account`;

  return (
    <div className={css.phone} data-testid="funding-phone">
      <div role="tablist" aria-label={t`Funding desk`} className={css.tabs}>
        {tabs.map((tab, at) => (
          <button
            key={tab.id}
            ref={(el) => {
              if (el) tabRefs.current.set(tab.id, el);
              else tabRefs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`funding-phone-tab-${tab.id}`}
            aria-controls={`funding-phone-panel-${tab.id}`}
            aria-selected={tab.id === shown}
            tabIndex={tab.id === shown ? 0 : -1}
            className={css.tab}
            onClick={() => setShown(tab.id)}
            onKeyDown={(e) => onTabKey(e, at)}
          >
            {label(tab)}
          </button>
        ))}
      </div>
      {tabs.map((tab) => {
        const visible = tab.id === shown;
        const content = tab.widgets.map((w) => {
          const Widget = w.component;
          const widget = (
            <Widget
              key={w.type}
              widgetKey={widgetKey(w.type, "main")}
              pair={currency}
              symbol={fundingSymbol(currency)}
            />
          );
          if (tab.widgets.length === 1) return widget;
          return (
            <section key={w.type} className={css.stackItem} aria-labelledby={`funding-phone-heading-${w.type}`}>
              <h2 id={`funding-phone-heading-${w.type}`} className={css.stackTitle}>
                {i18n._(w.title)}
              </h2>
              <div className={css.stackBody}>{widget}</div>
            </section>
          );
        });
        return (
          <div
            key={tab.id}
            role="tabpanel"
            id={`funding-phone-panel-${tab.id}`}
            aria-labelledby={`funding-phone-tab-${tab.id}`}
            hidden={!visible}
            tabIndex={0}
            className={tab.id === OFFER_FORM_TYPE ? css.formPanel : css.panel}
          >
            {/* A hidden panel keeps its state but runs its effects' cleanups: no subscription, no paint. */}
            <Activity mode={visible ? "visible" : "hidden"}>
              {tab.widgets.length === 1 ? content : <div className={css.stack}>{content}</div>}
            </Activity>
          </div>
        );
      })}
    </div>
  );
}
