/**
 * The required-verification dialog's state (docs/product-rules.md#trading-allowed): any page whose
 * call the exchange refuses for want of a verification level shows the one dialog, mounted once in
 * the app shell, that says which level is needed and links to the form on /account.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { proxy } from "valtio";
import { levelGateOf, type LevelGate, type VerificationLevel } from "../../protocol";

export const LEVEL_NAMES: Readonly<Record<VerificationLevel, MessageDescriptor>> = {
  0: msg`Basic`,
  1: msg`Basic plus`,
  2: msg`Intermediate`,
  3: msg`Full`,
};

export const levelGate: { gate: LevelGate | null } = proxy({ gate: null });

/** Shows the dialog when `message` is the exchange's verification refusal; true when it was one. */
export function showLevelGateFor(message: string): boolean {
  const gate = levelGateOf(message);
  if (gate) levelGate.gate = gate;
  return gate !== null;
}

export function closeLevelGate(): void {
  levelGate.gate = null;
}
