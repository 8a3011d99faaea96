import { style } from "@vanilla-extract/css";

export { alert, field, hint, select, success } from "../account/account-page.css";
export { button, ghost, input } from "../api-keys/api-keys.css";

export const form = style({ display: "grid", gap: 14 });
/** The account and wallet choices side by side while there is room, stacked on a phone. */
export const grid = style({ display: "grid", gap: 12, gridTemplateColumns: "repeat(auto-fit, minmax(160px, 1fr))" });
/** The amount field beside its "Max" button. */
export const amountRow = style({ display: "flex", gap: 8, alignItems: "stretch" });
export const amountInput = style({ flex: 1, minWidth: 0 });
/** The derivatives collateral choice: a box before its label. */
export const check = style({ display: "flex", gap: 8, alignItems: "center" });
export const actions = style({ display: "flex", gap: 10, justifyContent: "flex-end", flexWrap: "wrap" });
