#!/usr/bin/env node
/*
 * The statements of every repository (src/**\/*.repository.ts), written to sql/<file>.sql so that a change to a
 * query shows in review as a change to its SQL (docs/architecture.md, "SQL under review").
 *
 *   node scripts/sql-statements.js           writes sql/ (npm run sql)
 *   node scripts/sql-statements.js --check   fails, listing the files, when sql/ differs from the code (npm run sql:check)
 *
 * Read from the source with the TypeScript parser, no database and no build: per class, its members by name, and
 * in each member, in source order, every SQL text (a string or template whose first word is a statement's; a
 * `${...}` stays as the fragment the code computes there) and every TypeORM call (query builders, find/save/update
 * helpers, and our inserts written from an entity's columns) as TypeScript prints it, in SQL comments. The file's
 * top-level constants (shared fragments, status lists) head the file. Deterministic: files, classes and members in
 * name order, nothing timed or random.
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const SRC = path.join(ROOT, 'src');
const OUT = path.join(ROOT, 'sql');

const SQL_START = /^\s*\(?\s*(SELECT|INSERT|UPDATE|DELETE|WITH|LOCK|TRUNCATE|VALUES|CALL)\b/i;
/** Entity-manager and repository methods that run SQL of TypeORM's making. */
const TYPEORM_CALLS = new Set([
  'count',
  'countBy',
  'createQueryBuilder',
  'decrement',
  'delete',
  'exists',
  'existsBy',
  'find',
  'findAndCount',
  'findBy',
  'findOne',
  'findOneBy',
  'findOneByOrFail',
  'findOneOrFail',
  'increment',
  'insert',
  'remove',
  'save',
  'softDelete',
  'update',
  'upsert',
]);
/** Our functions that write a statement from an entity's column metadata (src/infra/database/entity-insert.ts). */
const ENTITY_STATEMENT_CALLS = new Set(['insertReturningAll']);
/** Query-builder methods: a builder kept in a variable is refined by later calls of these. */
const BUILDER_CALLS = new Set([
  'addGroupBy',
  'addOrderBy',
  'addSelect',
  'andWhere',
  'groupBy',
  'having',
  'innerJoin',
  'innerJoinAndSelect',
  'leftJoin',
  'leftJoinAndSelect',
  'limit',
  'offset',
  'orWhere',
  'orderBy',
  'select',
  'setLock',
  'skip',
  'take',
  'where',
]);

function repositoryFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return repositoryFiles(full);
      return e.name.endsWith('.repository.ts') ? [full] : [];
    })
    .sort();
}

/** Lines without their common indentation (the first line's own aside), trailing blanks trimmed. */
function dedent(text) {
  const lines = text.split('\n').map((l) => l.replace(/\s+$/, ''));
  const rest = lines.slice(1).filter((l) => l.trim());
  const indent = rest.length ? Math.min(...rest.map((l) => l.length - l.trimStart().length)) : 0;
  return [lines[0].trim(), ...lines.slice(1).map((l) => l.slice(indent))].join('\n').trim();
}

/** A literal's text, `${expression}` kept as written. */
function literalText(node, source) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  let text = node.head.text;
  for (const span of node.templateSpans) text += `\${${span.expression.getText(source)}}${span.literal.text}`;
  return text;
}

const isLiteral = (n) => ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n);
const calledName = (call) => (ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : null);

/** The outermost call chain `node` starts: `a.createQueryBuilder('c').where(...).getMany()`. */
function chainOf(node) {
  let top = node;
  for (;;) {
    const p = top.parent;
    if (p && ts.isPropertyAccessExpression(p) && p.expression === top && p.parent && ts.isCallExpression(p.parent)) {
      top = p.parent;
    } else if (p && ts.isNonNullExpression(p)) top = p;
    else return top;
  }
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** Code as TypeScript prints it (comments left out), as SQL comment lines: `-- <label>:` then the code. */
const codeLines = (label, node, source) => {
  const lines = printer.printNode(ts.EmitHint.Expression, node, source).split('\n');
  return [`-- ${label}:`, ...lines.map((l) => `--   ${l}`.trimEnd())].join('\n');
};

/** What a member runs, in source order: SQL texts, and TypeORM calls marked `-- typeorm:`. */
function statementsOf(body, source) {
  const found = [];
  const visit = (node) => {
    if (isLiteral(node)) {
      const text = literalText(node, source);
      if (SQL_START.test(text)) found.push(`${dedent(text)};`);
      if (ts.isTemplateExpression(node)) node.templateSpans.forEach((s) => visit(s.expression));
      return;
    }
    if (ts.isCallExpression(node)) {
      if (ts.isIdentifier(node.expression) && ENTITY_STATEMENT_CALLS.has(node.expression.text)) {
        found.push(codeLines('from the entity columns', node, source));
        return;
      }
      const name = calledName(node);
      const builderStep = BUILDER_CALLS.has(name) && ts.isIdentifier(node.expression.expression);
      if (TYPEORM_CALLS.has(name) || builderStep) {
        const chain = chainOf(node);
        found.push(codeLines('typeorm', chain, source));
        // SQL texts in the chain's arguments are part of the line already; a raw query inside one is not.
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return found;
}

function memberName(member, source) {
  if (ts.isConstructorDeclaration(member)) return 'constructor';
  return member.name ? member.name.getText(source) : '(anonymous)';
}

/** The statements file of one repository source, as text. */
function render(file) {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const sections = [];
  const fragments = [];
  for (const stmt of source.statements) {
    if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) {
        if (d.initializer) fragments.push(`-- ${d.name.getText(source)} = ${dedent(d.initializer.getText(source))}`);
      }
    } else if (ts.isClassDeclaration(stmt) && stmt.name) {
      const members = stmt.members
        .filter((m) => !ts.isConstructorDeclaration(m) || m.body)
        .map((m) => ({ name: memberName(m, source), found: statementsOf(m, source) }))
        .filter((m) => m.found.length)
        .sort((a, b) => a.name.localeCompare(b.name));
      for (const m of members) sections.push(`-- ${stmt.name.text}.${m.name}\n${m.found.join('\n\n')}`);
    } else if (ts.isFunctionDeclaration(stmt) && stmt.name && stmt.body) {
      const found = statementsOf(stmt.body, source);
      if (found.length) sections.push(`-- function ${stmt.name.text}\n${found.join('\n\n')}`);
    }
  }
  const header = [
    `-- Generated by \`npm run sql\` from ${path.relative(ROOT, file)}; do not edit.`,
    '-- Per member in name order, its statements in source order; ${...} is a fragment the code computes there.',
  ];
  if (fragments.length) {
    const commented = fragments.flatMap((f) => f.split('\n').map((l) => (l.startsWith('--') ? l : `--   ${l}`)));
    header.push('--', '-- Fragments defined in the file:', ...commented);
  }
  return `${[header.join('\n'), ...sections].join('\n\n')}\n`;
}

/** sql/<repository file name>.sql for every repository, as name -> text. */
function expected() {
  const out = new Map();
  for (const file of repositoryFiles(SRC)) {
    const name = `${path.basename(file, '.ts')}.sql`;
    if (out.has(name)) throw new Error(`two repositories named ${name}: name one of them differently`);
    out.set(name, render(file));
  }
  return out;
}

function main() {
  const want = expected();
  const have = fs.existsSync(OUT) ? fs.readdirSync(OUT).filter((n) => n.endsWith('.sql')) : [];
  if (process.argv.includes('--check')) {
    const stale = [...want].filter(
      ([name, text]) => !have.includes(name) || fs.readFileSync(path.join(OUT, name), 'utf8') !== text,
    );
    const extra = have.filter((name) => !want.has(name));
    if (!stale.length && !extra.length) return;
    for (const [name] of stale) console.error(`sql/${name} differs from its repository`);
    for (const name of extra) console.error(`sql/${name} has no repository`);
    console.error("The repositories' statements changed: run 'npm run sql' and commit sql/.");
    process.exit(1);
  }
  fs.mkdirSync(OUT, { recursive: true });
  for (const name of have) if (!want.has(name)) fs.rmSync(path.join(OUT, name));
  for (const [name, text] of want) fs.writeFileSync(path.join(OUT, name), text);
  console.log(`sql/: ${want.size} repositories`);
}

main();
