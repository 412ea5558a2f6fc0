import { IsString, Length } from 'class-validator';

export class CreateContactGroupDto {
  @IsString() @Length(1, 200) name: string;
}
