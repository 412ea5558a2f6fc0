import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtraModels, getSchemaPath } from '@nestjs/swagger';
import { SendTemplateMessageDto, SendTextMessageDto } from './send-message.dto';

/** The body of a send (public and console routes): a text or a template, told apart by `type`. */
export const ApiSendMessageBody = () =>
  applyDecorators(
    ApiExtraModels(SendTextMessageDto, SendTemplateMessageDto),
    ApiBody({
      schema: {
        oneOf: [{ $ref: getSchemaPath(SendTextMessageDto) }, { $ref: getSchemaPath(SendTemplateMessageDto) }],
        discriminator: {
          propertyName: 'type',
          mapping: { text: getSchemaPath(SendTextMessageDto), template: getSchemaPath(SendTemplateMessageDto) },
        },
      },
    }),
  );
