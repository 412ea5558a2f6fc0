import { PartialType } from '@nestjs/swagger';
import { CreateOutboundAssistantDto } from './create-outbound-assistant.dto';

/**
 * Every create field, optional; omitted fields are left alone, `voice`/`model`/`transcriber` replace the stored
 * object whole. Null clears the nullable fields (description, firstMessage, systemPrompt) and leaves the others.
 */
export class UpdateOutboundAssistantDto extends PartialType(CreateOutboundAssistantDto) {}
