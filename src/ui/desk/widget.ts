/**
 * The contract between the desk's grid and its widgets. A widget is a React component that draws one
 * market (or the account) inside a grid cell; the grid owns position and size, the widget owns its
 * content and fills the cell (height 100 %, its own scrolling). Widget keys are `widget/{type}/{id}`
 * (docs/product-rules.md#keys-and-paths).
 */
import type { MessageDescriptor } from "@lingui/core";
import type { ComponentType } from "react";
import type { Feature } from "../../protocol";

export interface WidgetProps {
  /** The widget key, `widget/{type}/{id}`. */
  readonly widgetKey: string;
  /** The market this widget shows, e.g. `BTCUSD` (the desk's pair unless the widget is pinned). */
  readonly pair: string;
  /** `tBTCUSD`. */
  readonly symbol: string;
}

export interface WidgetDef {
  readonly type: string;
  readonly title: MessageDescriptor;
  readonly component: ComponentType<WidgetProps>;
  /** Default and minimum size in grid units (columns of 1/24 width, rows of 24 px). */
  readonly defaultSize: { readonly w: number; readonly h: number };
  readonly minSize: { readonly w: number; readonly h: number };
  /** The product feature the widget belongs to: a platform variant without it neither lists nor draws it. */
  readonly feature?: Feature;
}
