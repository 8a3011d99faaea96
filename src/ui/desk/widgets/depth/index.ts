export { depthChartWidget } from "./DepthChart";
