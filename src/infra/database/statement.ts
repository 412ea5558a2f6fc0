/** One SQL statement with its positional parameters ($1 … $n), built by a repository and run by its caller. */
export interface Statement {
  sql: string;
  params: unknown[];
}
