import { ArgumentMetadata, Type, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { ApiError, ErrorDetail } from '../errors/api-error';
import { compiledValidatorOf } from './compiled-validation';

function flatten(errors: ValidationError[], parent = ''): ErrorDetail[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    // Absent, not malformed: "title must be a string; title must be shorter than..." would send the caller
    // looking at a value they never sent.
    if (error.value === undefined && error.constraints) return [{ field, message: `${field} is required` }];
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      // class-validator starts messages with the bare property name; name the full path instead.
      message: message.startsWith(`${error.property} `) ? `${field}${message.slice(error.property.length)}` : message,
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * The global validation pipe's rules: DTO classes are the contract, unknown properties are stripped (so a GET body
 * can be sent back to PATCH), and every failure is a 400 VALIDATION_ERROR whose message names the field.
 */
export const validationPipeOptions: ValidationPipeOptions = {
  transform: true,
  whitelist: true,
  forbidUnknownValues: true,
  stopAtFirstError: false,
  // `value` is read only to tell a missing field from a malformed one; it is never put in the response.
  validationError: { target: false, value: true },
  exceptionFactory: (errors) => {
    const details = flatten(errors);
    const message = details.length ? details.map((d) => d.message).join('; ') : 'Invalid request';
    return new ApiError('VALIDATION_ERROR', message, details);
  },
};

/** ValidationPipe behind the compiled path of the body DTOs marked `@CompiledValidation()`. */
class DtoValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const compiled = metadata.type === 'body' && metadata.metatype ? compiledValidatorOf(metadata.metatype) : undefined;
    const dto = compiled?.(value);
    return dto === undefined ? super.transform(value, metadata) : Promise.resolve(dto);
  }
}

/** The global validation pipe (the rules above). */
export function createValidationPipe(): ValidationPipe {
  return new DtoValidationPipe(validationPipeOptions);
}

const bodies = createValidationPipe();

/**
 * Validates a body the route took unvalidated (`@Body() body: unknown`, documented with `@ApiBody`), exactly as the
 * global pipe would: for a route whose resource must be found first, so another organization's id is 404
 * NOT_FOUND whatever the body says (docs/contracts/errors.md).
 */
export function validateBody<T extends object>(metatype: Type<T>, body: unknown): Promise<T> {
  return bodies.transform(body, { type: 'body', metatype }) as Promise<T>;
}
