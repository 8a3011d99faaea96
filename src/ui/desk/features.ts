/**
 * Whether the platform variant offers a feature on the desk (src/protocol/platform.ts): widgets,
 * form controls and actions of a switched-off feature are not shown at all.
 */
import type { Feature } from "../../protocol";
import { isFeatureEnabled } from "../../protocol";
import { platform } from "../config";

export function deskOffers(feature: Feature): boolean {
  try {
    return isFeatureEnabled(platform(), feature);
  } catch {
    // No runtime configuration loaded (a component rendered on its own in a test): the default
    // variant, which offers everything.
    return true;
  }
}
