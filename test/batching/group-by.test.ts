import { describe, expect, it } from 'vitest';
import { answerByGroup, groupBy } from '../../src/batching/group-by.js';

describe('answerByGroup', () => {
  it("makes one call per group, with the group's items in order, and answers in the items' order", async () => {
    const calls: [string, string[]][] = [];
    const items = ['org_a:1', 'org_b:2', 'org_a:3', 'org_c:4', 'org_b:5'];
    const answers = await answerByGroup(
      items,
      (item) => item.split(':')[0]!,
      async (org, group) => {
        calls.push([org, group]);
        // The groups settle in an order of their own: the answers must not follow it.
        await new Promise((resolve) => setTimeout(resolve, org === 'org_a' ? 20 : 0));
        return group.map((item) => `answer to ${item}`);
      },
    );
    expect(answers).toEqual(items.map((item) => `answer to ${item}`));
    expect(calls).toEqual([
      ['org_a', ['org_a:1', 'org_a:3']],
      ['org_b', ['org_b:2', 'org_b:5']],
      ['org_c', ['org_c:4']],
    ]);
  });

  it('fails whole when one group fails', async () => {
    await expect(
      answerByGroup(
        ['a', 'b'],
        (x) => x,
        async (k) => (k === 'b' ? Promise.reject(new Error('Redis down')) : [k]),
      ),
    ).rejects.toThrow('Redis down');
  });
});

describe('groupBy with runs', () => {
  it('makes a key only where a run changes, and puts a run that comes back in its group', () => {
    const keyed: string[] = [];
    const key = (item: string) => {
      keyed.push(item);
      return item[0]!;
    };
    const groups = groupBy(['a1', 'a2', 'a3', 'b1', 'b2', 'a4'], key, (previous, item) => previous[0] === item[0]);
    expect([...groups]).toEqual([
      ['a', ['a1', 'a2', 'a3', 'a4']],
      ['b', ['b1', 'b2']],
    ]);
    expect(keyed).toEqual(['a1', 'b1', 'a4']);
  });
});
