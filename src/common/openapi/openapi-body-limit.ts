import type { OpenAPIObject } from '@nestjs/swagger';
import { errorResponse } from './api-errors.decorator';

type Json = Record<string, any>;
const METHODS = ['post', 'put', 'patch'];

/**
 * Every operation that takes a body can answer 413 PAYLOAD_TOO_LARGE (the 1 MiB limit is Fastify's, enforced
 * before any route code runs, so no route decorator says it). Documented here once for both documents.
 */
export function applyBodyLimitResponses(document: OpenAPIObject): void {
  for (const item of Object.values<Json>(document.paths)) {
    for (const method of METHODS) {
      const operation: Json | undefined = item[method];
      if (!operation?.requestBody || operation.responses?.['413']) continue;
      operation.responses = { ...operation.responses, 413: errorResponse(['PAYLOAD_TOO_LARGE']) };
    }
  }
}
