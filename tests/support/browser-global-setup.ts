/**
 * Global setup of the browser test project: a scripted Bitfinex-like websocket server on loopback,
 * whose URL the Chromium tests receive through vitest's provide/inject.
 */
import type { TestProject } from "vitest/node";
import { startScriptedExchange } from "./scripted-exchange.ts";

declare module "vitest" {
  export interface ProvidedContext {
    exchangeUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const exchange = await startScriptedExchange();
  project.provide("exchangeUrl", exchange.url);
  return () => exchange.close();
}
