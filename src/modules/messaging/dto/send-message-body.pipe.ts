import { Injectable, PipeTransform } from '@nestjs/common';
import { ApiError } from '../../../common/errors/api-error';
import { createValidationPipe } from '../../../common/validation/validation.pipe';
import { MEDIA_KINDS } from '../message-payload';
import {
  MESSAGE_TYPES,
  SendMediaMessageDto,
  SendMessageDto,
  SendTemplateMessageDto,
  SendTextMessageDto,
} from './send-message.dto';

const VARIANTS = {
  text: SendTextMessageDto,
  template: SendTemplateMessageDto,
  ...Object.fromEntries(MEDIA_KINDS.map((kind) => [kind, SendMediaMessageDto])),
} as Record<(typeof MESSAGE_TYPES)[number], new () => SendMessageDto>;

/**
 * The send body is a union discriminated by `type`: pick the variant's DTO, then validate it exactly as the
 * global pipe validates any other body (whitelist, field-named 400s). An unknown `type` is a 400 naming `type`.
 */
@Injectable()
export class SendMessageBodyPipe implements PipeTransform<unknown, Promise<SendMessageDto>> {
  private readonly validation = createValidationPipe();

  async transform(value: unknown): Promise<SendMessageDto> {
    const type = (value as { type?: unknown } | null)?.type;
    if (typeof value !== 'object' || value === null || !MESSAGE_TYPES.includes(type as never)) {
      throw ApiError.validation('type', `type must be one of ${MESSAGE_TYPES.join(', ')}`);
    }
    const metatype = VARIANTS[type as keyof typeof VARIANTS];
    return this.validation.transform(value, { type: 'body', metatype }) as Promise<SendMessageDto>;
  }
}
