import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, MaxLength, Min } from 'class-validator';

const LINK_DOC = 'A public https URL the provider downloads the file from; give `link` or `mediaId`, not both';

/** A file for the provider to send: by public link or by the provider's id of an uploaded file, one of the two. */
export class MediaSourceDto {
  @ApiPropertyOptional({ maxLength: 2048, example: 'https://example.com/invoice.pdf', description: LINK_DOC })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  link?: string;
  @ApiPropertyOptional({
    maxLength: 200,
    description:
      "The provider's id of a file a user sent to this messaging account (an inbound message's `mediaId`); through " +
      'WhatsApp any other id is 400 VALIDATION_ERROR',
  })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  mediaId?: string;
}

/** Whether a media source names exactly one file: a link (https) or an id. */
export const hasOneSource = (source: MediaSourceDto) =>
  Boolean(source.link) !== Boolean(source.mediaId) && (!source.link || /^https:\/\/\S+$/.test(source.link));

/** A template header's parameter. */
export class TemplateHeaderDto extends MediaSourceDto {
  @ApiProperty({ enum: ['text', 'image', 'video', 'document'] })
  @IsIn(['text', 'image', 'video', 'document'])
  type: 'text' | 'image' | 'video' | 'document';
  @ApiPropertyOptional({ maxLength: 60, description: 'For `text`: the value of the header placeholder' })
  @IsOptional()
  @IsString()
  @Length(1, 60)
  text?: string;
}

/** A template button's parameter. */
export class TemplateButtonDto {
  @ApiProperty({ minimum: 0, maximum: 9, description: "The button's position in the template, from 0" })
  @IsInt()
  @Min(0)
  @Max(9)
  index: number;
  @ApiProperty({ enum: ['quick_reply', 'url'] })
  @IsIn(['quick_reply', 'url'])
  subType: 'quick_reply' | 'url';
  @ApiProperty({
    minLength: 1,
    maxLength: 1000,
    description: 'quick_reply: the payload returned when the user taps it; url: the suffix appended to its URL',
  })
  @IsString()
  @Length(1, 1000)
  value: string;
}
