import { Type, applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PaginationDto } from '../pagination/pagination.dto';

/** `{"data": <Model>}` (or `{"data": [<Model>]}` with `isArray`) with the given success status. */
export function ApiDataResponse(
  model: Type<unknown>,
  options: { status?: number; isArray?: boolean; description?: string } = {},
) {
  const data = options.isArray
    ? { type: 'array', items: { $ref: getSchemaPath(model) } }
    : { $ref: getSchemaPath(model) };
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? 'Success',
      schema: { type: 'object', required: ['data'], properties: { data } },
    }),
  );
}

/** `{"data": [<Model>], "pagination": {cursor, hasMore, pageSize}}`. */
export function ApiPageResponse(model: Type<unknown>) {
  return applyDecorators(
    ApiExtraModels(model, PaginationDto),
    ApiResponse({
      status: 200,
      description: 'One page, newest first; follow `pagination.cursor` while `hasMore` is true',
      schema: {
        type: 'object',
        required: ['data', 'pagination'],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
          pagination: { $ref: getSchemaPath(PaginationDto) },
        },
      },
    }),
  );
}
