import { style } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";

/** Rate, period, amount, time: one column more than the trading tape. */
export const columns = style({ selectors: { "&&": { gridTemplateColumns: "1.2fr 0.6fr 1fr 0.9fr" } } });

export const title = style({ color: vars.color.text, fontSize: 12, padding: "2px 2px" });
