import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { MESSAGE_TEXT_MAX_LENGTH } from './send-message.dto';

/** A person's text reply from the console (README "Chat agent"): stored with senderType `agent`. */
export class PersonReplyDto {
  @ApiProperty({ minLength: 1, maxLength: MESSAGE_TEXT_MAX_LENGTH, example: 'Hi, this is Sam from the front desk.' })
  @IsString()
  @Length(1, MESSAGE_TEXT_MAX_LENGTH)
  text: string;
}
