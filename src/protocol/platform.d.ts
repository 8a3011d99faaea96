/**
 * Platform variants (SPEC sections 1, 4, 9): each has a default pair, a default display currency and
 * a set of disabled features. Selected by the runtime configuration.
 */
export declare const PLATFORM_VARIANTS: readonly ["default", "jp", "br", "tr"];
export type PlatformVariant = (typeof PLATFORM_VARIANTS)[number];
/** Product features that a variant may switch off; navigation and routes are gated on these. */
export declare const FEATURES: readonly [
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
];
export type Feature = (typeof FEATURES)[number];
export interface VariantConfig {
  readonly variant: PlatformVariant;
  readonly defaultPair: string;
  readonly defaultCurrency: string;
  readonly disabledFeatures: ReadonlySet<Feature>;
}
export declare function isPlatformVariant(value: unknown): value is PlatformVariant;
/** The variant's configuration; an unknown name falls back to `default`. */
export declare function variantConfig(variant: unknown): VariantConfig;
export declare function isFeatureEnabled(config: VariantConfig, feature: Feature): boolean;
