import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TRANSFER_MODES } from './tool.entity';
import { RECORDED_VALUE_BYTES, TOOL_CALL_STATUSES, TRANSFER_STATUSES } from './call-tools';

/** One function tool invocation on a call (extension). */
export class ToolCallResponse {
  @ApiProperty({ description: "The voice platform's id of the invocation" }) id: string;
  @ApiProperty({ example: 'lookup_order' }) name: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { orderId: 'A-17' },
    description: 'The arguments the assistant passed',
  })
  arguments: unknown;
  // Any JSON value: OpenAPI 3.0 has no `null` type and forbids `nullable` without one, so null rides on a member.
  @ApiProperty({
    anyOf: [
      { type: 'string', nullable: true },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {} },
    ],
    example: { status: 'shipped' },
    description: "Your answer's `result`, any JSON value; null when the call failed",
  })
  result: unknown;
  @ApiProperty({ enum: TOOL_CALL_STATUSES }) status: string;
  @ApiProperty() durationMs: number;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiPropertyOptional({
    enum: [true],
    description: `Present when \`arguments\` or \`result\` was longer than ${RECORDED_VALUE_BYTES} bytes and is recorded as null`,
  })
  truncated?: true;
}

/** A call's transfer to another number (extension). */
export class CallTransferResponse {
  @ApiProperty({ example: '+14155550150' }) to: string;
  @ApiProperty({ enum: TRANSFER_MODES }) mode: string;
  @ApiProperty({ enum: TRANSFER_STATUSES }) status: string;
  @ApiProperty({ format: 'date-time' }) at: string;
}
