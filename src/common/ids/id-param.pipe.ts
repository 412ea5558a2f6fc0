import { Injectable, PipeTransform } from '@nestjs/common';
import { ApiError } from '../errors/api-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** Path ids are UUIDs; anything else fails path validation (docs/contracts/errors.md: 400 VALIDATION_ERROR naming `id`). */
@Injectable()
export class IdParamPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUuid(value)) throw ApiError.validation('id', 'id must be a UUID');
    return value.toLowerCase();
  }
}
