import { expect, it } from 'vitest';
import { slotMasters } from '../../src/app/shard-changes.js';

const NODES = `2e15 127.0.0.1:42617@52617 slave 598d 0 1795744734000 3 connected
598d 127.0.0.1:27298@37298 myself,master - 0 1795744734000 3 connected 10923-16383
fd62 127.0.0.1:21520@31520 master - 0 1795744734446 2 connected 5461-10922
a7b6 127.0.0.1:33238@43238 master - 0 1795744734346 1 connected 0-5460
4c3d 127.0.0.1:44447@54447 slave a7b6 0 1795744734447 1 connected
`;

it('names the masters that serve slots, whatever order CLUSTER NODES lists them in', () => {
  expect(slotMasters(NODES)).toBe('598d,a7b6,fd62');
  expect(slotMasters(NODES.split('\n').reverse().join('\n'))).toBe('598d,a7b6,fd62');
});

it('changes when a replica takes over a failed master, and leaves out a master with no slots', () => {
  const failedOver = NODES.replace('a7b6 127.0.0.1:33238@43238 master', 'a7b6 127.0.0.1:33238@43238 master,fail')
    .replace('4c3d 127.0.0.1:44447@54447 slave a7b6 0 1795744734447 1 connected', '4c3d 127.0.0.1:44447@54447 master - 0 1795744734447 4 connected 0-5460')
    .replace(' connected 0-5460\n4c3d', ' connected\n4c3d');
  expect(slotMasters(failedOver)).toBe('4c3d,598d,fd62');
});
