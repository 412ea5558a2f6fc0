import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';

export class RunScenarioDto {
  @ApiPropertyOptional({
    minimum: 1,
    example: 1,
    description: "The case's version to talk to (400 when it has none such); omitted: its current one",
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  caseVersion?: number;
}

export class RunCaseScenariosDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() caseId: string;

  @ApiPropertyOptional({
    minimum: 1,
    example: 1,
    description: "The case's version to talk to; omitted: its current one",
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  caseVersion?: number;
}
