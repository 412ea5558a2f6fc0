import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';

/** What a schedule or follow-up runs with: a case, an outbound assistant, or both (one at least, checked on create). */
export const CaseIdField = () =>
  applyDecorators(
    ApiPropertyOptional({
      format: 'uuid',
      description: 'A case of the organization; this or `assistantConfigId` required',
    }),
    IsOptional(),
    IsUUID(),
  );

export const AssistantConfigIdField = () =>
  applyDecorators(
    ApiPropertyOptional({ format: 'uuid', description: 'An outbound assistant of the organization' }),
    IsOptional(),
    IsUUID(),
  );
