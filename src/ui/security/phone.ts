/**
 * Phone numbers as the SMS card reads them: libphonenumber-js (Google's libphonenumber metadata,
 * the rules the exchange checks again in server/sms.ts). Only the SMS card's lazily loaded chunk
 * imports this, so the metadata is fetched when that card is shown.
 */
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";

/**
 * A phone number as typed, read by the rules of `country` (a national number) or its own `+`
 * prefix: its E.164 form, or null when that country has no such number.
 */
export function phoneE164(input: string, country: string): string | null {
  const phone = parsePhoneNumberFromString(input, country as CountryCode);
  return phone?.isValid() ? phone.number : null;
}

/** Every country with phone numbers: its ISO code and calling code. */
export function phoneCountries(): { readonly code: string; readonly dial: string }[] {
  return getCountries().map((c) => ({ code: c, dial: getCountryCallingCode(c) }));
}
