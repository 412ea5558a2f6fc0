import { QueryFailedError } from 'typeorm';

/** PostgreSQL error codes the services turn into outcomes (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

function driverError(error: unknown): { code?: string; constraint?: string } {
  return error instanceof QueryFailedError ? (error.driverError as { code?: string; constraint?: string }) : {};
}

/** A unique constraint refused the write; when `constraint` is given, that one only. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = driverError(error);
  return e.code === UNIQUE_VIOLATION && (constraint === undefined || e.constraint === constraint);
}

/** A foreign key refused the write; when `constraint` is given, that one only. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  const e = driverError(error);
  return e.code === FOREIGN_KEY_VIOLATION && (constraint === undefined || e.constraint === constraint);
}
