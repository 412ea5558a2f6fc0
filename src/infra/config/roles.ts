/** What a process does: serve HTTP (`api`), run queue workers (`worker`), register cluster-wide cron (`scheduler`). */
export const ROLES = ['api', 'worker', 'scheduler'] as const;
export type Role = (typeof ROLES)[number];
