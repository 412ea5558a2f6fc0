import { ValidateBy, ValidationOptions, isISO8601 } from 'class-validator';

/** The years a date may fall in (docs: README "Bounds"): what every store, client and time library agrees on. */
export const FIRST_YEAR = 1970;
export const LAST_YEAR = 9999;
/** Said in every date field's OpenAPI description. */
export const DATE_RANGE_NOTE = `between the years ${FIRST_YEAR} and ${LAST_YEAR}`;

function inRange(value: unknown): boolean {
  const date =
    value instanceof Date
      ? value
      : typeof value === 'string' && isISO8601(value, { strict: true })
        ? new Date(value)
        : null;
  if (!date || Number.isNaN(date.getTime())) return false;
  const year = date.getUTCFullYear();
  return year >= FIRST_YEAR && year <= LAST_YEAR;
}

/**
 * An ISO 8601 date-time (or a Date a transform made of one) in the years FIRST_YEAR to LAST_YEAR. A valid ISO
 * string can name year 0 or year 275,760, which PostgreSQL refuses or JavaScript cannot print back: such a
 * value is a 400 VALIDATION_ERROR naming the field, never a database error.
 */
export function IsBoundedDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isBoundedDate',
      validator: {
        validate: inRange,
        defaultMessage: (args) => `${args?.property ?? 'value'} must be an ISO 8601 date-time ${DATE_RANGE_NOTE}`,
      },
    },
    options,
  );
}
