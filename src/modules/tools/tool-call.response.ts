import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TRANSFER_MODES } from './tool.entity';
import { RECORDED_VALUE_BYTES, TOOL_CALL_STATUSES, TRANSFER_STATUSES } from './call-tools';
import { TOOL_CALL_ERROR_CODES } from './tool-call-error';
import { anyJsonProperty } from '../../common/openapi/any-json.property';

export class ToolCallErrorResponse {
  @ApiProperty({
    enum: TOOL_CALL_ERROR_CODES,
    description:
      'HTTP_STATUS: a status other than 2xx; BAD_RESPONSE: a 2xx answer that is not JSON or has no `result`; ' +
      'TOO_LARGE: over 64 KB; TIMEOUT: no answer within `timeoutSeconds`; CONNECTION: the URL could not be ' +
      'reached (3 attempts); URL_REFUSED: the outbound URL rules refuse the address, or the tool is gone',
  })
  code: string;
  @ApiProperty({ example: 'the answer has no "result" member; answer 2xx with a JSON object {"result": …}' })
  message: string;
  @ApiPropertyOptional({ example: 200, description: 'The status the tool answered with, when it answered' })
  httpStatus?: number;
}

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
  @ApiProperty(
    anyJsonProperty({
      example: { status: 'shipped' },
      description: "Your answer's `result`, any JSON value; null when the call failed",
    }),
  )
  result: unknown;
  @ApiProperty({ enum: TOOL_CALL_STATUSES }) status: string;
  @ApiProperty() durationMs: number;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiPropertyOptional({
    enum: [true],
    description: `Present when \`arguments\` or \`result\` was longer than ${RECORDED_VALUE_BYTES} bytes and is recorded as null`,
  })
  truncated?: true;
  @ApiPropertyOptional({
    type: ToolCallErrorResponse,
    description: 'Extension: why a `failed` or `timed-out` call failed (absent when it succeeded)',
  })
  error?: ToolCallErrorResponse;
}

/** A call's transfer to another number (extension). */
export class CallTransferResponse {
  @ApiProperty({ example: '+14155550150' }) to: string;
  @ApiProperty({ enum: TRANSFER_MODES }) mode: string;
  @ApiProperty({ enum: TRANSFER_STATUSES }) status: string;
  @ApiProperty({ format: 'date-time' }) at: string;
}
