/** The margin info widget (type "margin"), offered only where the platform variant has margin. */
import { msg } from "@lingui/core/macro";
import type { WidgetDef } from "../../widget";
import { MarginWidget } from "./MarginWidget";

export const marginWidgetDef: WidgetDef = {
  type: "margin",
  title: msg`Margin info`,
  component: MarginWidget,
  defaultSize: { w: 6, h: 10 },
  minSize: { w: 4, h: 6 },
  feature: "margin",
};
