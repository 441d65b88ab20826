/**
 * `regatta completion bash|zsh`: a completion script written from the command tree itself (commander's commands and
 * options), so it never lags behind the CLI. Words after the command path: its subcommands and options, and the
 * rollout kinds as `KIND/` for commands that take KIND/NAME.
 */
import { Help, type Command } from 'commander';

/** Every command path (space-joined names, '' for the program) with the words completed after it. */
export function completionWords(program: Command, kindPrefixes: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const help = new Help();
  const walk = (cmd: Command, path: string) => {
    // commander's own notion of hidden: the commands its help lists (plus its help command, left out here)
    const visible = new Set(help.visibleCommands(cmd));
    const subs = cmd.commands.filter((c) => visible.has(c));
    const takesTarget = cmd.registeredArguments.some((a) => a.name() === 'KIND/NAME');
    out.set(path, [
      ...subs.map((c) => c.name()),
      ...cmd.options.filter((o) => !o.hidden).map((o) => o.long ?? o.short ?? ''),
      ...(takesTarget ? kindPrefixes.map((k) => `${k}/`) : []),
      '--help',
    ].filter(Boolean));
    for (const c of subs) walk(c, path === '' ? c.name() : `${path} ${c.name()}`);
  };
  walk(program, '');
  return out;
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** The bash script (zsh loads it through bashcompinit), for `regatta` and `kubectl-regatta`. */
export function completionScript(shell: 'bash' | 'zsh', words: Map<string, string[]>): string {
  const cases = [...words]
    .map(([path, w]) => `    ${quote(path)}) words=${quote(w.join(' '))} ;;`)
    .join('\n');
  const paths = [...words.keys()].filter(Boolean).map(quote).join(' ');
  return [
    ...(shell === 'zsh' ? ['autoload -U +X bashcompinit && bashcompinit'] : []),
    '_regatta() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" path="" next w words i',
    `  local -a known=(${paths})`,
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    w="${COMP_WORDS[i]}"',
    '    [[ $w == -* ]] && continue',
    '    next="${path:+$path }$w"',
    '    for k in "${known[@]}"; do [[ $k == "$next" ]] && path="$next" && break; done',
    '  done',
    '  case "$path" in',
    cases,
    '    *) words="" ;;',
    '  esac',
    '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '  [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == */ ]] && compopt -o nospace 2>/dev/null',
    '  return 0',
    '}',
    'complete -F _regatta regatta kubectl-regatta',
    '',
  ].join('\n');
}
