import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { callStateDiagram } from './call-state-diagram';

const DOC = join(__dirname, '..', '..', '..', 'docs', 'architecture.md');
const BLOCK =
  /(<!-- call-state-diagram: generated from src\/modules\/calls\/call-transitions\.ts -->\s*```mermaid\n)([\s\S]*?)(\n```)/;

describe('the call state diagram in docs/architecture.md', () => {
  it('is the one generated from the transition table (WRITE_DOCS=1 rewrites it)', () => {
    const doc = readFileSync(DOC, 'utf8');
    const match = BLOCK.exec(doc);
    expect(match).not.toBeNull();
    if (process.env.WRITE_DOCS === '1') {
      writeFileSync(
        DOC,
        doc.replace(BLOCK, (_all, open: string, _old: string, close: string) => open + callStateDiagram() + close),
      );
      return;
    }
    expect(match![2]).toBe(callStateDiagram());
  });
});
