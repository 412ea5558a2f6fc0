import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES, ErrorCode } from '../errors/error-codes';

export class ErrorDetailDto {
  @ApiProperty({ example: 'title' }) field: string;
  @ApiProperty({ example: 'title must be shorter than or equal to 200 characters' }) message: string;
  @ApiPropertyOptional({
    description:
      "Extension: the messaging provider's own numeric error code when it refused (`field` is `provider`), " +
      'e.g. WhatsApp 131047; see docs/providers.md for the codes and what each error means',
    example: 132000,
  })
  providerCode?: number;
}

export class ErrorBodyDto {
  @ApiProperty({ enum: ERROR_CODES, enumName: 'ErrorCode', example: 'NOT_FOUND' }) code: ErrorCode;
  @ApiProperty({ example: 'Contact not found' }) message: string;
  @ApiPropertyOptional({ type: [ErrorDetailDto], description: 'Per-field validation failures, or the provider\'s refusal' })
  details?: ErrorDetailDto[];
}

/** `{"error": {"code", "message"}}`: the shape of every error response. */
export class ErrorEnvelopeDto {
  @ApiProperty({ type: ErrorBodyDto }) error: ErrorBodyDto;
}
