import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminOnly, Public } from '../../common/auth/access.decorators';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { AuthFailureBudget } from '../../common/rate-limit/auth-failure-budget';
import { ApiError } from '../../common/errors/api-error';
import { sessionCookie } from './console-cookies';
import { ConsoleSessionResponse } from './console-session.response';
import { ConsoleSessionsService, SESSION_TTL_SECONDS } from './console-sessions.service';
import { SignInDto } from './dto/sign-in.dto';

/** The console's sign-in: the admin token in, an HttpOnly session cookie out (docs/console.md). */
@ApiTags('Console session')
@Controller('admin/v1/session')
export class ConsoleSessionController {
  private readonly secure: boolean;

  constructor(
    private readonly sessions: ConsoleSessionsService,
    private readonly failures: AuthFailureBudget,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secure = config.env !== 'development';
  }

  @Post()
  @HttpCode(201)
  @Public()
  @ApiOperation({
    operationId: 'signIn',
    summary: 'Sign in to the console with the admin token',
    description:
      'Sets the `vc_console_session` cookie (HttpOnly, SameSite=Strict, Path=/admin/v1, Secure outside ' +
      'development, 8 hours). Admin routes then accept the cookie instead of the bearer token; unsafe methods ' +
      'also need the returned `csrfToken` in `X-Console-CSRF`.',
  })
  @ApiDataResponse(ConsoleSessionResponse, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'UNAUTHORIZED', 'NOT_FOUND', 'RATE_LIMITED')
  async signIn(
    @Body() dto: SignInDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: ConsoleSessionResponse }> {
    // A wrong admin token counts against the address like any refused credential (AUTH_FAILURE_LIMIT_PER_MINUTE).
    const session = await this.sessions.signIn(dto.token).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'UNAUTHORIZED') return this.failures.refuse(request.ip, error);
      throw error;
    });
    void reply.header(
      'set-cookie',
      sessionCookie(session.token, { maxAgeSeconds: SESSION_TTL_SECONDS, secure: this.secure }),
    );
    return { data: ConsoleSessionResponse.from(session) };
  }

  @Get()
  @Public()
  @ApiOperation({ operationId: 'getSession', summary: 'The current console session (401 when signed out)' })
  @ApiDataResponse(ConsoleSessionResponse)
  @ApiErrors('UNAUTHORIZED')
  async get(@Req() request: FastifyRequest): Promise<{ data: ConsoleSessionResponse }> {
    return { data: ConsoleSessionResponse.from(await this.sessions.current(request)) };
  }

  @Delete()
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Signed out' })
  @AdminOnly()
  @ApiOperation({ operationId: 'signOut', summary: 'Sign out: the session is revoked in the database at once' })
  @ApiErrors('UNAUTHORIZED', 'NOT_FOUND')
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.sessions.signOut(request);
    void reply.header('set-cookie', sessionCookie('', { maxAgeSeconds: 0, secure: this.secure }));
  }
}
