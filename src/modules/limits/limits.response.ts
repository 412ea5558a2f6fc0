import { ApiProperty } from '@nestjs/swagger';
import { ConcurrencySnapshot } from './call-admission';

/** GET /api/v1/limits (extension, docs/contracts/dialer.md). */
export class LimitsResponse {
  @ApiProperty({ example: 10, description: 'Calls (outbound and inbound) that may be live at once; default 10' })
  maxConcurrentCalls: number;
  @ApiProperty({
    example: 0,
    description: 'Extension field: slots of maxConcurrentCalls that outbound calls leave free for inbound callers',
  })
  inboundReserve: number;
  @ApiProperty({ example: 3, description: 'Calls in progress now (`processing`)' })
  liveCalls: number;
  @ApiProperty({
    example: 0,
    description: 'Outbound calls due but waiting for a free slot (status `new`, or `scheduled` and due)',
  })
  queuedCalls: number;

  static from(s: ConcurrencySnapshot): LimitsResponse {
    return {
      maxConcurrentCalls: s.maxConcurrentCalls,
      inboundReserve: s.inboundReserve,
      liveCalls: s.liveCalls,
      queuedCalls: s.queuedCalls,
    };
  }
}

/** POST /admin/v1/organizations/{orgId}/limits (docs/contracts/dialer.md): the limits as set, with the organization's id. */
export class OrganizationLimitsResponse extends LimitsResponse {
  @ApiProperty({ format: 'uuid', description: 'The organization' }) id: string;
}
