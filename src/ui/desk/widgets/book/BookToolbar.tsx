import { useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { BOOK_PRECISIONS } from "../../../../protocol";
import { updateSetting } from "../../../settings/store";
import { BOOK_LAYOUT, type BookLayout } from "./book-layout";
import { FeedBadge } from "./FeedBadge";
import type { HealthStore } from "./feed-health";
import * as css from "./order-book.css";

/** Throttle choices offered (ms between two views; 0: every frame the worker publishes). */
export const THROTTLE_CHOICES = [0, 100, 250, 500, 1000] as const;

interface BookToolbarProps {
  readonly precision: number;
  readonly layout: BookLayout;
  readonly compact: boolean;
  readonly throttleMs: number;
  readonly health: HealthStore;
  /** Scrolls a stacked or ladder list back to the spread; absent in the side-by-side layout. */
  readonly onCenter: (() => void) | null;
}

export function BookToolbar({ precision, layout, compact, throttleMs, health, onCenter }: BookToolbarProps) {
  const { t } = useLingui();
  const throttles: readonly number[] = THROTTLE_CHOICES.includes(throttleMs as (typeof THROTTLE_CHOICES)[number])
    ? THROTTLE_CHOICES
    : [...THROTTLE_CHOICES, throttleMs].sort((a, b) => a - b);
  const layouts: readonly { value: BookLayout; label: string; icon: ReactNode }[] = [
    { value: BOOK_LAYOUT.SIDE_BY_SIDE, label: t`Bids and asks side by side`, icon: <SideIcon /> },
    { value: BOOK_LAYOUT.STACKED, label: t`Asks above bids`, icon: <StackIcon /> },
    { value: BOOK_LAYOUT.LADDER, label: t`Price ladder`, icon: <LadderIcon /> },
  ];
  return (
    <div className={css.toolbar}>
      <div className={css.group} role="group" aria-label={t`Precision`}>
        {BOOK_PRECISIONS.map((p, i) => {
          const digits = 5 - i;
          return (
            <button
              key={p}
              type="button"
              className={css.toggle}
              aria-pressed={precision === i}
              data-testid={`book-prec-${p}`}
              title={t`Precision ${p}: ${digits} significant digits`}
              onClick={() => updateSetting("book_precision", i)}
            >
              {p}
            </button>
          );
        })}
      </div>
      <div className={css.group} role="group" aria-label={t`Layout`}>
        {layouts.map((l) => (
          <button
            key={l.value}
            type="button"
            className={css.toggle}
            aria-pressed={layout === l.value}
            aria-label={l.label}
            title={l.label}
            data-testid={`book-layout-${l.value}`}
            onClick={() => updateSetting("book_layout", l.value)}
          >
            {l.icon}
          </button>
        ))}
      </div>
      <div className={css.group}>
        <button
          type="button"
          className={css.toggle}
          aria-pressed={compact}
          title={t`Compact numbers (1.2k)`}
          aria-label={t`Compact numbers`}
          data-testid="book-compact"
          onClick={() => updateSetting("book_compact_numbers", !compact)}
        >
          1.2k
        </button>
        {onCenter ? (
          <button
            type="button"
            className={css.toggle}
            title={t`Back to the spread`}
            aria-label={t`Back to the spread`}
            data-testid="book-center"
            onClick={onCenter}
          >
            <CenterIcon />
          </button>
        ) : null}
      </div>
      <select
        className={css.select}
        aria-label={t`Update rate`}
        title={t`Update rate`}
        data-testid="book-throttle"
        value={String(throttleMs)}
        onChange={(e) => updateSetting("book_throttle_ms", Number(e.target.value))}
      >
        {throttles.map((ms) => (
          <option key={ms} value={String(ms)}>
            {ms === 0 ? t`Live` : t`${ms} ms`}
          </option>
        ))}
      </select>
      <span className={css.spacer} />
      <FeedBadge store={health} testId="book-health" />
    </div>
  );
}

function SideIcon() {
  return (
    <svg className={css.icon} viewBox="0 0 14 14" aria-hidden="true">
      <rect x="1" y="2" width="5" height="2" />
      <rect x="1" y="6" width="5" height="2" />
      <rect x="1" y="10" width="5" height="2" />
      <rect x="8" y="2" width="5" height="2" />
      <rect x="8" y="6" width="5" height="2" />
      <rect x="8" y="10" width="5" height="2" />
    </svg>
  );
}

function StackIcon() {
  return (
    <svg className={css.icon} viewBox="0 0 14 14" aria-hidden="true">
      <rect x="1" y="1" width="12" height="2" />
      <rect x="1" y="4" width="12" height="2" />
      <rect x="4" y="6.5" width="6" height="1" />
      <rect x="1" y="8" width="12" height="2" />
      <rect x="1" y="11" width="12" height="2" />
    </svg>
  );
}

function LadderIcon() {
  return (
    <svg className={css.icon} viewBox="0 0 14 14" aria-hidden="true">
      <rect x="5" y="1" width="4" height="12" />
      <rect x="9.5" y="2" width="3.5" height="2" />
      <rect x="9.5" y="5" width="2.5" height="2" />
      <rect x="1" y="8" width="3.5" height="2" />
      <rect x="2" y="11" width="2.5" height="2" />
    </svg>
  );
}

function CenterIcon() {
  return (
    <svg className={css.icon} viewBox="0 0 14 14" aria-hidden="true">
      <rect x="1" y="6" width="12" height="2" />
      <path d="M7 1 L10 4 H4 Z" />
      <path d="M7 13 L10 10 H4 Z" />
    </svg>
  );
}
