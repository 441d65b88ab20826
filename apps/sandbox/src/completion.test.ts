import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { completionScript, completionWords } from './completion.js';

function program(): Command {
  const p = new Command('regatta');
  const rollout = p.command('rollout');
  rollout.command('status').argument('<KIND/NAME>').option('-w, --watch').option('-n, --namespace <ns>');
  rollout.command('pause').argument('<KIND/NAME>');
  p.command('version');
  p.command('node-simulator', { hidden: true });
  return p;
}

/** What bash offers for the words typed so far (the last one being completed). */
function complete(script: string, words: string[]): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'completion-')), 'c.sh');
  writeFileSync(file, script);
  const typed = words.map((w) => `'${w}'`).join(' ');
  const out = execFileSync(
    'bash',
    ['-c', `source ${file}; COMP_WORDS=(regatta ${typed}); COMP_CWORD=${words.length}; _regatta; echo "\${COMPREPLY[*]}"`],
    { encoding: 'utf8' },
  );
  return out.trim().split(' ').filter(Boolean);
}

describe('regatta completion', () => {
  it('offers the words of each command path: subcommands, options, and KIND/ for commands taking KIND/NAME', () => {
    const words = completionWords(program(), ['cloneset', 'asts']);
    expect(words.get('')).toEqual(['rollout', 'version', '--help']);
    expect(words.get('rollout status')).toEqual(['--watch', '--namespace', 'cloneset/', 'asts/', '--help']);
    expect(words.has('node-simulator')).toBe(false);
  });

  it('completes in bash, skipping options and their values on the way', () => {
    const script = completionScript('bash', completionWords(program(), ['cloneset', 'asts']));
    expect(complete(script, ['ro'])).toEqual(['rollout']);
    expect(complete(script, ['rollout', ''])).toEqual(['status', 'pause', '--help']);
    expect(complete(script, ['rollout', 'status', '-n', 'shop', 'c'])).toEqual(['cloneset/']);
    expect(complete(script, ['rollout', 'status', '--w'])).toEqual(['--watch']);
  });

  it('loads bashcompinit for zsh', () => {
    expect(completionScript('zsh', new Map([['', ['x']]])).split('\n')[0]).toBe(
      'autoload -U +X bashcompinit && bashcompinit',
    );
  });
});
