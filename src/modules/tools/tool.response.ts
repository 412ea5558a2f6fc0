import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TOOL_TYPES, TRANSFER_MODES, Tool } from './tool.entity';

export class ToolMessagesResponse {
  @ApiPropertyOptional() start?: string;
  @ApiPropertyOptional() failed?: string;
}

export class TransferDestinationResponse {
  @ApiProperty({ example: '+14155550150' }) number: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional() message?: string;
  @ApiPropertyOptional() handoffMessage?: string;
  @ApiProperty({ enum: TRANSFER_MODES }) mode: string;
}

/** A tool as the admin API shows it: the fields of its type set, the others null. Never its secret. */
export class ToolResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) organizationId: string;
  @ApiProperty({ enum: TOOL_TYPES }) type: string;
  @ApiProperty({ type: String, nullable: true, example: 'lookup_order' }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) parameters: object | null;
  @ApiProperty({ type: String, nullable: true }) url: string | null;
  @ApiProperty({ type: Number, nullable: true }) timeoutSeconds: number | null;
  @ApiProperty({ type: ToolMessagesResponse, nullable: true }) messages: ToolMessagesResponse | null;
  @ApiProperty({ type: [TransferDestinationResponse], nullable: true }) destinations:
    TransferDestinationResponse[] | null;
  @ApiProperty({ type: String, nullable: true }) providerToolId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;

  static from(t: Tool): ToolResponse {
    return {
      id: t.id,
      organizationId: t.organizationId,
      type: t.type,
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      url: t.url,
      timeoutSeconds: t.timeoutSeconds,
      messages: t.messages,
      destinations: t.destinations,
      providerToolId: t.providerToolId,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    };
  }
}

/** The create answer: a function tool's signing secret, shown this once. */
export class CreatedToolResponse extends ToolResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'whsec_3b1f...',
    description: 'Function tools: the secret signing each call (X-Webhook-Signature), shown only here; null otherwise',
  })
  secret: string | null;
}
