import { Foundation1795331202983 } from './1795331202983-Foundation';
import { CoreDomainTables1795332022647 } from './1795332022647-CoreDomainTables';
import { Webhooks1795332239808 } from './1795332239808-Webhooks';

/**
 * Every migration, in order. Generate with `npm run migration:generate --name=<Name>`, then list the class here;
 * `npm run db:check` fails when the entities and these migrations drift apart.
 */
export const MIGRATIONS: Function[] = [Foundation1795331202983, CoreDomainTables1795332022647, Webhooks1795332239808];
