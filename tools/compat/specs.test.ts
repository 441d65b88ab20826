import { describe, expect, it } from 'vitest';
import { leadingString, parseSpecs, selects, specKey } from './specs.js';

// shaped like upstream's test/e2e/apps/v1alpha1/cloneset.go (gofmt: one tab per block)
const SOURCE = [
  'package v1alpha1',
  '',
  'var _ = ginkgo.Describe("CloneSet", ginkgo.Label("CloneSet", "workload"), func() {',
  '\tf := v1alpha1.NewDefaultFramework("clonesets")',
  '\tginkgo.Context("CloneSet Creating", func() {',
  '\t\tginkgo.It("creates with \\"quotes\\"", func() {',
  '\t\t\tginkgo.By("Create CloneSet")',
  '\t\t})',
  '\t})',
  '\tginkgo.Context("CloneSet Updating", func() {',
  '\t\tginkgo.It(`CloneSet partition="99%", replicas=4`, func() {',
  '\t\t})',
  '\t\tginkgo.It(specName, func() {',
  '\t\t})',
  '\t})',
  '\tginkgo.It("top level", func() {})',
  '})',
].join('\n');

describe('parseSpecs', () => {
  it('lists every It with its line and the containers around it', () => {
    expect(parseSpecs(SOURCE, 'apps/v1alpha1/cloneset.go')).toEqual([
      {
        file: 'apps/v1alpha1/cloneset.go',
        line: 6,
        text: 'creates with "quotes"',
        containers: ['CloneSet', 'CloneSet Creating'],
      },
      {
        file: 'apps/v1alpha1/cloneset.go',
        line: 11,
        text: 'CloneSet partition="99%", replicas=4',
        containers: ['CloneSet', 'CloneSet Updating'],
      },
      {
        file: 'apps/v1alpha1/cloneset.go',
        line: 13,
        text: 'specName',
        containers: ['CloneSet', 'CloneSet Updating'],
      },
      { file: 'apps/v1alpha1/cloneset.go', line: 16, text: 'top level', containers: ['CloneSet'] },
    ]);
  });

  it('ignores By, helper calls and text that only mentions It(', () => {
    expect(parseSpecs('\tginkgo.By("x")\n\t// ginkgo.It is not called here\n\tfoo.Itx("y")', 'f.go')).toEqual(
      [],
    );
  });
});

describe('leadingString', () => {
  it.each([
    ['"a, b", func() {', 'a, b'],
    ['`raw "x"`, func() {', 'raw "x"'],
    ['"esc \\\\ and \\"q\\""', 'esc \\ and "q"'],
    ['fmt.Sprintf("x %d", n), func() {', 'fmt.Sprintf("x %d"'],
  ])('%s → %s', (input, expected) => expect(leadingString(input)).toBe(expected));
});

describe('selects', () => {
  const spec = {
    file: 'apps/v1alpha1/cloneset.go',
    line: 1366,
    text: 'CloneSet Update with DisablePVCReuse=true',
    containers: [],
  };
  it.each([
    ['1366', true],
    ['1367', false],
    ['apps/v1alpha1/cloneset.go:1366', true],
    ['cloneset.go:1366', true],
    ['apps/v1alpha1/cloneset.go', true],
    ['apps/v1beta1/cloneset.go', false],
    ['DisablePVCReuse', true],
    ['daemonset.go:1366', false],
  ])('%s → %s', (filter, expected) => expect(selects(filter, spec)).toBe(expected));

  it('keys a spec by file and text', () =>
    expect(specKey(spec)).toBe('apps/v1alpha1/cloneset.go:CloneSet Update with DisablePVCReuse=true'));
});
