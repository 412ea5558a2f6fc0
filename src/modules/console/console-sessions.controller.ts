import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { RevokedSessionsResponse } from './console-session.response';
import { ConsoleSessionsService } from './console-sessions.service';

/** Every console session at once (docs/console.md, "Sessions"). */
@ApiTags('Console session')
@Controller('admin/v1/sessions')
export class ConsoleSessionsController {
  constructor(private readonly sessions: ConsoleSessionsService) {}

  @Post('revoke-all')
  @HttpCode(200)
  @AdminOnly()
  @ApiOperation({
    operationId: 'revokeAllSessions',
    summary: 'End every console session now',
    description:
      'Every operator, the caller included when signed in with a session, must sign in again. Sessions also end ' +
      'by themselves when `ADMIN_TOKEN` changes: each is bound to the token that opened it.',
  })
  @ApiDataResponse(RevokedSessionsResponse)
  @ApiErrors('UNAUTHORIZED', 'NOT_FOUND', 'RATE_LIMITED')
  async revokeAll(): Promise<{ data: RevokedSessionsResponse }> {
    return { data: { revoked: await this.sessions.revokeAll() } };
  }
}
