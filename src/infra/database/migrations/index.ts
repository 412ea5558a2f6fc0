import { Foundation1795331202983 } from './1795331202983-Foundation';
import { CoreDomainTables1795332022647 } from './1795332022647-CoreDomainTables';
import { Automations1795332186369 } from './1795332186369-Automations';
import { ContactsSearch1795332194012 } from './1795332194012-ContactsSearch';
import { Webhooks1795332239808 } from './1795332239808-Webhooks';
import { MinuteLedger1795332420025 } from './1795332420025-MinuteLedger';
import { UsageDailyTotals1795333161728 } from './1795333161728-UsageDailyTotals';
import { Messaging1795334038316 } from './1795334038316-Messaging';

/**
 * Every migration, in order. Generate with `npm run migration:generate --name=<Name>`, then list the class here;
 * `npm run db:check` fails when the entities and these migrations drift apart.
 */
export const MIGRATIONS: Function[] = [
  Foundation1795331202983,
  CoreDomainTables1795332022647,
  Automations1795332186369,
  ContactsSearch1795332194012,
  Webhooks1795332239808,
  MinuteLedger1795332420025,
  UsageDailyTotals1795333161728,
  Messaging1795334038316,
];
