import { ApiPropertyOptional } from '@nestjs/swagger';
import Ajv, { ValidateFunction } from 'ajv';
import { IsBoolean, IsOptional, IsString, MaxLength, ValidateBy, ValidationOptions } from 'class-validator';

/** Bounds of a case's post-call analysis (docs/tools.md, "Post-call analysis"). */
export const ANALYSIS_LIMITS = { schemaProperties: 50, schemaBytes: 16 * 1024, successCriteria: 2000 } as const;

/** What a case asks to learn from each of its ended calls. */
export interface AnalysisPlan {
  summary: boolean;
  /** JSON Schema of an object; the structured data extracted from the call must be valid against it. */
  structuredDataSchema: object | null;
  successCriteria: string | null;
}

/** What an ended call with a plan carries: each part null when not asked for or not produced. */
export interface CallAnalysis {
  summary: string | null;
  structuredData: object | null;
  success: boolean | null;
}

/** One compiler for the schemas customers give us; strict mode off so annotations (`example`) are accepted. */
const ajv = new Ajv({ strict: false, allErrors: false });

/** Why `schema` cannot be a case's structured-data schema, or null when it can. */
export function analysisSchemaProblem(schema: unknown): string | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'must be a JSON Schema object';
  if (Buffer.byteLength(JSON.stringify(schema)) > ANALYSIS_LIMITS.schemaBytes) {
    return `must be at most ${ANALYSIS_LIMITS.schemaBytes} bytes serialised as JSON`;
  }
  const s = schema as { type?: unknown; properties?: unknown };
  if (s.type !== 'object') return 'must describe an object (`"type": "object"`)';
  const properties = s.properties;
  if (
    properties !== undefined &&
    (typeof properties !== 'object' || properties === null || Array.isArray(properties))
  ) {
    return 'properties must be an object';
  }
  if (properties && Object.keys(properties).length > ANALYSIS_LIMITS.schemaProperties) {
    return `must have at most ${ANALYSIS_LIMITS.schemaProperties} properties`;
  }
  try {
    ajv.compile(schema);
  } catch (error) {
    return `does not compile as JSON Schema: ${(error as Error).message.slice(0, 200)}`;
  }
  return null;
}

/** A case's structured-data schema within ANALYSIS_LIMITS that compiles; the 400 names the field and why. */
function IsAnalysisSchema(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isAnalysisSchema',
      validator: {
        validate: (value: unknown) => analysisSchemaProblem(value) === null,
        defaultMessage: (args) => `${args?.property} ${analysisSchemaProblem(args?.value) ?? 'is invalid'}`,
      },
    },
    options,
  );
}

/** `analysis` on cases (extension). */
export class AnalysisPlanDto {
  @ApiPropertyOptional({ default: true, description: 'Summarise each ended call' })
  @IsOptional()
  @IsBoolean()
  summary?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      `JSON Schema of an object (\`"type": "object"\`, at most ${ANALYSIS_LIMITS.schemaProperties} properties, ` +
      `${ANALYSIS_LIMITS.schemaBytes} bytes); it must compile. The structured data extracted from each call is ` +
      'validated against it before it is stored.',
  })
  @IsOptional()
  @IsAnalysisSchema()
  structuredDataSchema?: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: ANALYSIS_LIMITS.successCriteria, description: 'What makes a call a success' })
  @IsOptional()
  @IsString()
  @MaxLength(ANALYSIS_LIMITS.successCriteria)
  successCriteria?: string;
}

export function analysisPlanOf(dto: AnalysisPlanDto): AnalysisPlan {
  return {
    summary: dto.summary ?? true,
    structuredDataSchema: dto.structuredDataSchema ?? null,
    successCriteria: dto.successCriteria ?? null,
  };
}

/** The API representation of a stored plan. */
export class AnalysisPlanResponse {
  @ApiPropertyOptional() summary: boolean;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  structuredDataSchema: object | null;
  @ApiPropertyOptional({ type: String, nullable: true }) successCriteria: string | null;
}

/** `analysis` on an ended call. */
export class CallAnalysisResponse {
  @ApiPropertyOptional({ type: String, nullable: true }) summary: string | null;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "Valid against the case's structuredDataSchema; null when none was produced or it was not valid",
  })
  structuredData: object | null;
  @ApiPropertyOptional({ type: Boolean, nullable: true }) success: boolean | null;
}

const validators = new Map<string, ValidateFunction>();

/**
 * The analysis stored on an ended call: what the platform produced, kept to what the plan asked for, with the
 * structured data checked against the plan's schema. `problem` says why structured data was dropped.
 */
export function finalAnalysis(
  plan: AnalysisPlan,
  produced: Partial<CallAnalysis> | null | undefined,
): { analysis: CallAnalysis; problem: string | null } {
  let structuredData = produced?.structuredData ?? null;
  let problem: string | null = null;
  if (plan.structuredDataSchema && structuredData !== null) {
    const key = JSON.stringify(plan.structuredDataSchema);
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(plan.structuredDataSchema);
      // A few schemas per organization in practice; the cache is bounded all the same.
      if (validators.size > 500) validators.clear();
      validators.set(key, validate);
    }
    if (!validate(structuredData)) {
      problem = ajv.errorsText(validate.errors).slice(0, 500);
      structuredData = null;
    }
  } else if (!plan.structuredDataSchema) {
    structuredData = null;
  }
  return {
    analysis: {
      summary: plan.summary ? (produced?.summary ?? null) : null,
      structuredData,
      success: produced?.success ?? null,
    },
    problem,
  };
}
