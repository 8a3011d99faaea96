/// <reference types="vite/client" />

declare module "*.po" {
  import type { Messages } from "@lingui/core";
  export const messages: Messages;
}

/** The build's identity, baked in by vite.config.ts and written into every page-data file. */
declare const __BUILD_ID__: string;
