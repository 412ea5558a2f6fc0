import { IsString, Length } from 'class-validator';

export class CreatePromptDto {
  @IsString() @Length(1, 50_000) content: string;
}
