import { ValidateBy, ValidationOptions } from 'class-validator';
import { FlatRecordLimits, flatRecordProblem } from './flat-record';

/** A flat object within `limits`; the 400 names the property and the bound it broke. */
export function IsFlatRecord(limits: FlatRecordLimits, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isFlatRecord',
      validator: {
        validate: (value: unknown) => flatRecordProblem(value, limits) === null,
        defaultMessage: (args) => `${args?.property} ${flatRecordProblem(args?.value, limits) ?? 'is invalid'}`,
      },
    },
    options,
  );
}
