import { CreateDateColumn, UpdateDateColumn } from 'typeorm';

/**
 * Timestamps with millisecond precision: what JavaScript's Date can carry, so keyset cursors built from a
 * row's createdAt compare exactly with the stored value.
 */
export const CreatedAt = () => CreateDateColumn({ type: 'timestamptz', precision: 3 });
export const UpdatedAt = () => UpdateDateColumn({ type: 'timestamptz', precision: 3 });
