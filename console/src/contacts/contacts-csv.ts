import Papa from 'papaparse';

/** The body of POST /contacts for one line; the API checks it (the console only reads the file). */
export interface ContactRow {
  title: string;
  phone: string;
  email?: string;
  notes?: string;
  tags?: string[];
  customFields?: Record<string, string>;
}

/** One line of the file and what it became: its line number (the header is line 1). */
export interface ContactLine {
  line: number;
  row: ContactRow;
}

export interface ParsedContacts {
  lines: ContactLine[];
  /** A problem with the file as a whole (a missing column, too many rows): nothing is sent. */
  fileProblem?: string;
  /** Lines the CSV parser could not read (unbalanced quotes, too few cells), with its words. */
  unreadable: Array<{ line: number; problem: string }>;
}

/** The most lines one import sends (50 requests of 1,000 rows); docs/console.md. */
export const MAX_IMPORT_LINES = 50_000;
/** The most rows POST /contacts/batch takes per request. */
export const BATCH_SIZE = 1000;

const KNOWN = new Set(['title', 'phone', 'email', 'notes', 'tags']);

/**
 * A contacts CSV: a header row naming `title` and `phone`, optionally `email`, `notes` and `tags` (separated by
 * `;`); any other column is a custom field (an empty cell sets none). Rows are not judged here: the API's batch
 * answer names each refused line with the error POST /contacts would give, so the rules live in one place.
 */
export function parseContactsCsv(text: string): ParsedContacts {
  const parsed = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim(),
  });
  const columns = parsed.meta.fields ?? [];
  const missing = ['title', 'phone'].filter((c) => !columns.includes(c));
  if (missing.length) {
    return {
      lines: [],
      unreadable: [],
      fileProblem: `The file has no ${missing.map((c) => `"${c}"`).join(' or ')} column.`,
    };
  }
  if (parsed.data.length > MAX_IMPORT_LINES) {
    return {
      lines: [],
      unreadable: [],
      fileProblem: `The file has ${parsed.data.length} rows; one import takes at most ${MAX_IMPORT_LINES.toLocaleString('en-US')}.`,
    };
  }
  const broken = new Map<number, string>();
  for (const error of parsed.errors) {
    if (error.row !== undefined && !broken.has(error.row)) broken.set(error.row, error.message);
  }
  const lines: ContactLine[] = [];
  const unreadable: ParsedContacts['unreadable'] = [];
  parsed.data.forEach((record, index) => {
    const line = index + 2;
    const problem = broken.get(index);
    if (problem) unreadable.push({ line, problem });
    else lines.push({ line, row: rowOf(record) });
  });
  return { lines, unreadable };
}

function rowOf(record: Record<string, string>): ContactRow {
  const cell = (name: string) => (record[name] ?? '').trim();
  const tags = cell('tags')
    .split(';')
    .map((t) => t.trim())
    .filter(Boolean);
  const custom = Object.entries(record).filter(([key, value]) => !KNOWN.has(key) && typeof value === 'string' && value);
  return {
    title: cell('title'),
    phone: cell('phone'),
    ...(cell('email') ? { email: cell('email') } : {}),
    ...(cell('notes') ? { notes: cell('notes') } : {}),
    ...(tags.length ? { tags } : {}),
    ...(custom.length ? { customFields: Object.fromEntries(custom) } : {}),
  };
}
