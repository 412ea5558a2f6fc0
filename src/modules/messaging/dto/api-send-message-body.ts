import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtraModels, getSchemaPath } from '@nestjs/swagger';
import { MEDIA_KINDS } from '../message-payload';
import { SendMediaMessageDto, SendTemplateMessageDto, SendTextMessageDto } from './send-message.dto';

/** The body of a send (public and console routes): a text, a template or a media message, told apart by `type`. */
export const ApiSendMessageBody = () =>
  applyDecorators(
    ApiExtraModels(SendTextMessageDto, SendTemplateMessageDto, SendMediaMessageDto),
    ApiBody({
      schema: {
        oneOf: [
          { $ref: getSchemaPath(SendTextMessageDto) },
          { $ref: getSchemaPath(SendTemplateMessageDto) },
          { $ref: getSchemaPath(SendMediaMessageDto) },
        ],
        discriminator: {
          propertyName: 'type',
          mapping: {
            text: getSchemaPath(SendTextMessageDto),
            template: getSchemaPath(SendTemplateMessageDto),
            ...Object.fromEntries(MEDIA_KINDS.map((kind) => [kind, getSchemaPath(SendMediaMessageDto)])),
          },
        },
      },
    }),
  );
