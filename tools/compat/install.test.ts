import { describe, expect, it } from 'vitest';
import { nodesWithoutNodeImage } from './install.js';

describe('nodes without a NodeImage', () => {
  it.each([
    { nodes: ['n1', 'n2'], images: ['fake-nodeimage', 'n1'], missing: ['n2'] },
    { nodes: ['n1'], images: ['n1', 'fake-nodeimage'], missing: [] },
    { nodes: [], images: [], missing: [] },
  ])('$nodes with $images → $missing', ({ nodes, images, missing }) => {
    expect(nodesWithoutNodeImage(nodes, images)).toEqual(missing);
  });
});
