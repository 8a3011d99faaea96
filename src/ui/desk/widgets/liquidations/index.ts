export { liquidationsWidget } from "./LiquidationsWidget";
