export { DepthChart, depthChartWidget } from "./DepthChart";
