import { Transform } from 'class-transformer';
import { ValidateBy, ValidationOptions } from 'class-validator';
import { toE164 } from './e164';

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
