/**
 * The exchange's funding offer rules, shared by the embedded exchange (which enforces them) and the
 * funding desk's offer form (which says so before sending): docs/protocol.md#funding-conventions.
 */

/** Shortest and longest period of a funding offer, in days. */
export const FUNDING_PERIOD_MIN = 2;
export const FUNDING_PERIOD_MAX = 120;
/** Highest daily rate the real API accepts (7 % a day). */
export const FUNDING_RATE_MAX = 0.07;
/** The smallest funding offer, in USD or its equivalent (the real API's 150). */
export const FUNDING_MIN_OFFER_USD = 150;

/** The offer types: a fixed rate, or the FRR plus a delta, floating (VAR) or fixed at opening (FIX). */
export const FUNDING_OFFER_TYPES = ["LIMIT", "FRRDELTAVAR", "FRRDELTAFIX"] as const;
export type FundingOfferType = (typeof FUNDING_OFFER_TYPES)[number];
