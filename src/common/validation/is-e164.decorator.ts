import { Transform } from 'class-transformer';
import { ValidateBy, ValidationOptions } from 'class-validator';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * Recent answers of `toE164`: a phone field is parsed by its transform and again by its validator (with the
 * normalised value), and parsing is the costliest step of a contact write (a profile of POST /contacts, BENCHMARKS.md). Bounded: emptied
 * when full, so the worst input costs a parse, never memory.
 */
const recent = new Map<string, string | null>();
const RECENT_MAX = 1024;

/** The E.164 form of a phone number written in any common international format, or null when it is not one. */
export function toE164(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 40 || !value.trim().startsWith('+')) return null;
  const known = recent.get(value);
  if (known !== undefined) return known;
  const parsed = parsePhoneNumberFromString(value.trim());
  const e164 = parsed?.isPossible() ? parsed.number : null;
  if (recent.size >= RECENT_MAX) recent.clear();
  recent.set(value, e164);
  return e164;
}

/**
 * A phone number in international form (`+` and country code); spaces, dashes and brackets are accepted and the
 * value is normalised to E.164 (`+14155550187`) before it reaches the service.
 */
export function IsE164(options?: ValidationOptions): PropertyDecorator {
  const normalise = Transform(({ value }) => toE164(value) ?? value);
  const validate = ValidateBy(
    {
      name: 'isE164',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && toE164(value) === value,
        defaultMessage: (args) => `${args?.property} must be a phone number in E.164 format, e.g. +14155550187`,
      },
    },
    options,
  );
  return (target: object, key: string | symbol) => {
    normalise(target, key);
    validate(target, key);
  };
}
