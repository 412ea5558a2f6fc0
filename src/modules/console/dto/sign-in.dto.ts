import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class SignInDto {
  /** The operator's ADMIN_TOKEN; exchanged once for a session cookie and never stored by the page. */
  @ApiProperty({ example: 'the-admin-token', minLength: 1, maxLength: 1000 })
  @IsString()
  @Length(1, 1000)
  token: string;
}
