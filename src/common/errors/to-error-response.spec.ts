import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { ApiError } from './api-error';
import { toErrorResponse } from './to-error-response';

describe('toErrorResponse', () => {
  it('renders ApiError with its code, status and details', () => {
    const r = toErrorResponse(ApiError.validation('title', 'title is too long'));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: 'title: title is too long',
        details: [{ field: 'title', message: 'title is too long' }],
      },
    });
    expect(r.unexpected).toBe(false);
  });

  it('maps Fastify parser errors, raw or wrapped by Nest, to the contract codes', () => {
    const tooLarge = Object.assign(new Error('Request body is too large'), {
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      statusCode: 413,
    });
    expect(toErrorResponse(tooLarge)).toMatchObject({ status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE' } } });
    const wrapped = new BadRequestException('Body is not valid JSON', {
      cause: Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY' }),
    });
    expect(toErrorResponse(wrapped)).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_ERROR', message: 'body: malformed JSON' } },
    });
  });

  it('renders unknown routes as NOT_FOUND', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /x'))).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: 'Route not found' } },
    });
  });

  it('hides everything about unexpected errors', () => {
    const r = toErrorResponse(new Error('relation "secret_table" does not exist at SELECT * FROM secret_table'));
    expect(r).toMatchObject({
      status: 500,
      body: { error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } },
      unexpected: true,
    });
    expect(JSON.stringify(r.body)).not.toContain('secret_table');
    expect(toErrorResponse(new HttpException('boom', 500)).body.error.message).toBe('Internal server error');
  });

  it('answers 503 SERVICE_UNAVAILABLE when the database connection is refused', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(toErrorResponse(refused)).toMatchObject({ status: 503, body: { error: { code: 'SERVICE_UNAVAILABLE' } } });
  });

  it('answers 503 when a connection is dropped mid-query or none can be obtained (no code, only a message)', () => {
    const dropped = Object.assign(new Error('Connection terminated unexpectedly'), { name: 'QueryFailedError' });
    const poolTimeout = new Error('timeout exceeded when trying to connect');
    const adminShutdown = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    for (const error of [dropped, poolTimeout, adminShutdown]) {
      expect(toErrorResponse(error)).toMatchObject({
        status: 503,
        body: { error: { code: 'SERVICE_UNAVAILABLE' } },
        headers: { 'retry-after': '1' },
      });
    }
    // A message that merely mentions a connection is still a 500.
    expect(toErrorResponse(new Error('Connection string is invalid')).status).toBe(500);
  });
});
