import { style } from "@vanilla-extract/css";
import { vars } from "../../../theme/contract.css";
import { compactSelect } from "../../../desk/widgets/widget-chrome.css";

export const label = style({ color: vars.color.textMuted, fontSize: 12 });
export const select = style([compactSelect, { font: "inherit", fontSize: 12 }]);
