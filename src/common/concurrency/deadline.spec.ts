import { withDeadline } from './deadline';

describe('withDeadline', () => {
  it("answers the work's result when it settles in time, and its failure", async () => {
    const late = jest.fn();
    expect(await withDeadline(Promise.resolve(1), 1000, () => 0, late)).toBe(1);
    await expect(withDeadline(Promise.reject(new Error('no')), 1000, () => 0, late)).rejects.toThrow('no');
    expect(late).not.toHaveBeenCalled();
  });

  it('answers the fallback when the work is late, and hands the late result or failure on', async () => {
    let finish!: (v: number) => void;
    const lateValues: unknown[] = [];
    const answer = await withDeadline(
      new Promise<number>((r) => (finish = r)),
      10,
      () => -1,
      (o) => lateValues.push(o),
    );
    expect(answer).toBe(-1);
    finish(7);
    await new Promise(setImmediate);
    expect(lateValues).toEqual([{ value: 7 }]);

    let fail!: (e: Error) => void;
    const failed = await withDeadline(
      new Promise<number>((_, f) => (fail = f)),
      10,
      () => -2,
      (o) => lateValues.push(o),
    );
    expect(failed).toBe(-2);
    fail(new Error('late'));
    await new Promise(setImmediate);
    expect(lateValues[1]).toEqual({ error: new Error('late') });
  });
});
