import { getCountry } from 'countries-and-timezones';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { IANAZone } from 'luxon';

/**
 * The zone a contact's calling window is evaluated in: the contact's own `timeZone` / `timezone` custom field
 * when it names a valid IANA zone; else the zone of the number's country when the country has exactly one (the
 * `countries-and-timezones` table); else the campaign's default (a multi-zone country such as the US or
 * Brazil cannot be resolved from the number alone).
 */
export function contactTimeZone(number: string, contactZone: unknown, fallback: string): string {
  if (typeof contactZone === 'string' && IANAZone.isValidZone(contactZone)) return contactZone;
  const country = parsePhoneNumberFromString(number)?.country;
  const zones = country ? (getCountry(country)?.timezones ?? []) : [];
  return zones.length === 1 ? zones[0] : fallback;
}
