import { ApiProperty } from '@nestjs/swagger';
import { ApiKey } from './api-key.entity';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An API key as the admin API shows it; the key itself only once, at creation (CreatedApiKeyResponse). */
export class ApiKeyResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) organizationId: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['live', 'test'] }) environment: 'live' | 'test';
  @ApiProperty({ description: 'The non-secret start of the key', example: 'vc_live_AbC1' }) hint: string;
  @ApiProperty({ type: [String], example: ['calls:read'] }) scopes: string[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Last successful authentication, to the minute',
  })
  lastUsedAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  static from(key: ApiKey): ApiKeyResponse {
    return {
      id: key.id,
      organizationId: key.organizationId,
      name: key.name,
      environment: key.environment,
      hint: key.hint,
      scopes: key.scopes,
      expiresAt: iso(key.expiresAt),
      revokedAt: iso(key.revokedAt),
      lastUsedAt: iso(key.lastUsedAt),
      createdAt: key.createdAt.toISOString(),
    };
  }
}

export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({ description: 'The key itself: shown this once, stored only as a hash' }) key: string;
}
