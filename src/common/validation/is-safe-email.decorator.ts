import { ValidateBy, ValidationOptions, isEmail } from 'class-validator';

/** A UTF-16 surrogate without its pair: JSON allows it ("\ud800"), but it is no character at all. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * `@IsEmail()` that answers 400 for ill-formed strings: validator's isEmail calls encodeURI, which throws a
 * URIError on a lone surrogate, and the throw escaped the pipe as a 500 (found by the hostile-input fuzzing).
 */
export function IsSafeEmail(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEmail',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && !LONE_SURROGATE.test(value) && isEmail(value),
        defaultMessage: (args) => `${args?.property ?? 'value'} must be an email`,
      },
    },
    options,
  );
}
