/** The process's `DatabaseUrls` (database-urls.ts). */
export const DATABASE_URLS = Symbol('DATABASE_URLS');
