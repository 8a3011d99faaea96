/**
 * Platform variants (docs/product-rules.md#platform-variants): each has a default pair, a default display currency and
 * a set of disabled features. Selected by the runtime configuration.
 */
export const PLATFORM_VARIANTS = ["default", "jp", "br", "tr"] as const;
export type PlatformVariant = (typeof PLATFORM_VARIANTS)[number];

/** Product features that a variant may switch off; navigation and routes are gated on these. */
export const FEATURES = [
  "margin",
  "derivatives",
  "funding",
  "borrow",
  "staking",
  "securities",
  "otc",
  "paper",
  "competitions",
  "merchants",
] as const;
export type Feature = (typeof FEATURES)[number];

export interface VariantConfig {
  readonly variant: PlatformVariant;
  readonly defaultPair: string;
  readonly defaultCurrency: string;
  readonly disabledFeatures: ReadonlySet<Feature>;
}

/*
 * The product names only part of the jp list ("margin, derivatives, securities, staking, borrow and
 * others") and of the tr list ("a broad set including funding, staking, securities and OTC"), and
 * none of br's; we disable what a Brazilian regulated venue would not offer at launch
 * (derivatives, securities, OTC, competitions) and write it down here as our decision.
 */
const VARIANTS: Record<PlatformVariant, VariantConfig> = {
  default: {
    variant: "default",
    defaultPair: "BTCUSD",
    defaultCurrency: "USD",
    disabledFeatures: new Set(),
  },
  jp: {
    variant: "jp",
    defaultPair: "BTCJPY",
    defaultCurrency: "JPY",
    disabledFeatures: new Set(["margin", "derivatives", "securities", "staking", "borrow", "funding", "competitions"]),
  },
  br: {
    variant: "br",
    defaultPair: "BTCBRL",
    defaultCurrency: "BRL",
    disabledFeatures: new Set(["derivatives", "securities", "otc", "competitions"]),
  },
  tr: {
    variant: "tr",
    defaultPair: "BTCTRY",
    defaultCurrency: "TRY",
    disabledFeatures: new Set([
      "funding",
      "borrow",
      "staking",
      "securities",
      "otc",
      "margin",
      "derivatives",
      "paper",
      "competitions",
      "merchants",
    ]),
  },
};

export function isPlatformVariant(value: unknown): value is PlatformVariant {
  return typeof value === "string" && (PLATFORM_VARIANTS as readonly string[]).includes(value);
}

/** The variant's configuration; an unknown name falls back to `default`. */
export function variantConfig(variant: unknown): VariantConfig {
  return VARIANTS[isPlatformVariant(variant) ? variant : "default"];
}

export function isFeatureEnabled(config: VariantConfig, feature: Feature): boolean {
  return !config.disabledFeatures.has(feature);
}
