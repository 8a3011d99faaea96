export { DemoBlockHost } from "./DemoBlockHost";
export { PaperBanner } from "./PaperBanner";
export { PaperSwitch } from "./PaperSwitch";
export { defaultDeskPair } from "./paper-mode";
export { usePaperOwner } from "./use-paper";
