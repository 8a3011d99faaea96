import { style } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";
import { panel } from "../widget-chrome.css";

export const root = style([panel, { position: "relative", containerType: "inline-size" }]);

export const header = style({
  display: "flex",
  alignItems: "center",
  gap: 6,
  padding: "4px 8px",
  borderBottom: `1px solid ${vars.color.border}`,
  flex: "0 0 auto",
});

export const title = style({ fontWeight: 600, margin: 0, fontSize: 12 });

export const spacer = style({ flex: "1 1 auto" });

export const body = style({ overflow: "auto", padding: "6px 8px", minHeight: 0, flex: "1 1 auto" });

/** Two columns of label/value pairs, one column on a narrow cell. */
export const list = style({
  display: "grid",
  gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
  columnGap: 16,
  rowGap: 4,
  margin: 0,
  "@container": { "(max-width: 320px)": { gridTemplateColumns: "minmax(0, 1fr)" } },
});

export const item = style({ display: "flex", justifyContent: "space-between", gap: 8, minWidth: 0 });

export const label = style({ color: vars.color.textMuted, margin: 0 });

export const value = style({ margin: 0, fontVariantNumeric: "tabular-nums", textAlign: "end" });

export const positive = style({ color: vars.color.positive });
export const negative = style({ color: vars.color.negative });

export const note = style({ color: vars.color.textMuted, margin: "8px 0 0" });
