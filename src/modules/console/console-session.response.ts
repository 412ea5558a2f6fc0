import { ApiProperty } from '@nestjs/swagger';
import { SignedIn } from './console-sessions.service';

export class ConsoleSessionResponse {
  @ApiProperty({ description: 'Send back in the X-Console-CSRF header on every POST, PATCH and DELETE' })
  csrfToken: string;
  @ApiProperty({ format: 'date-time', description: 'The session ends then (8 hours after sign-in) or at sign-out' })
  expiresAt: string;
  @ApiProperty({ enum: ['admin'], description: 'Who signed in: the admin token holder, who sees every organization' })
  subject: 'admin';

  static from(session: SignedIn): ConsoleSessionResponse {
    return { csrfToken: session.csrfToken, expiresAt: session.expiresAt.toISOString(), subject: 'admin' };
  }
}

export class RevokedSessionsResponse {
  @ApiProperty({ minimum: 0, description: 'Console sessions that were live and are now ended', example: 3 })
  revoked: number;
}
