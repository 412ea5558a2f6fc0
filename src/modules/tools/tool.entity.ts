import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';

export const TOOL_TYPES = ['function', 'transfer', 'end-call', 'platform'] as const;
export type ToolType = (typeof TOOL_TYPES)[number];

export const TRANSFER_MODES = ['cold', 'warm'] as const;
export type TransferMode = (typeof TRANSFER_MODES)[number];

/** What the assistant says around a function tool's call (`failed`: what it hears when the call fails). */
export interface ToolMessages {
  start?: string;
  failed?: string;
}

/** One number a transfer tool may forward the call to. */
export interface TransferDestination {
  number: string;
  description?: string;
  /** Said to the caller before transferring. */
  message?: string;
  /** Warm transfers: said to the person taking the call before the caller is connected. */
  handoffMessage?: string;
  mode: TransferMode;
}

/**
 * A tool an organization's assistants may use during calls (docs/tools.md, "Tools"): organization-wide
 * configuration like cases, not per world. Which columns are set depends on `type`; the rest are null.
 */
@Entity('tools')
@Index('ux_tools_org_name', ['organizationId', 'name'], { unique: true })
export class Tool {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') type: ToolType;
  /** Null only on platform tools, which the platform names. */
  @Column('text', { nullable: true }) name: string | null;
  @Column('text', { nullable: true }) description: string | null;
  /** Function tools: the JSON Schema of the arguments. */
  @Column('jsonb', { nullable: true }) parameters: object | null;
  @Column('text', { nullable: true }) url: string | null;
  @Column('int', { nullable: true }) timeoutSeconds: number | null;
  @Column('jsonb', { nullable: true }) messages: ToolMessages | null;
  @Column('jsonb', { nullable: true }) destinations: TransferDestination[] | null;
  @Column('text', { nullable: true }) providerToolId: string | null;
  /**
   * Function tools: the signing secret, sealed with SECRETS_KEY like a webhook endpoint's (every invocation must
   * compute an HMAC with it, so a hash would not do; src/infra/secrets/signing-secrets.ts); never selected unless
   * asked for.
   */
  @Column('text', { nullable: true, select: false }) secret: string | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
