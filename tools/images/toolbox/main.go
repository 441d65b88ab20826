// A small multi-call toolbox for the stand-in images (docs/real-nodes.md "Images"): what `kubectl exec`, exec probes
// and hooks, and OpenKruise's e2e specs run in a container — a POSIX shell (mvdan.cc/sh's interpreter: pipes,
// `$(...)`, `if`, `printf`, `[`, ...) and the commands those lines use (sleep, test/[, true, false, echo, cat, mv, cp,
// dd, hostname, ls, find, mkdir, touch, rm, env, pwd; flags beyond the ones the specs use are ignored). Installed as
// /bin/toolbox with a symlink per command; it runs the command named by its argv[0].
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

type applet func(args []string) int

var applets map[string]applet

func init() {
	applets = map[string]applet{
		"sh": shMain, "sleep": sleepMain, "test": testMain, "[": bracketMain, "true": func([]string) int { return 0 },
		"false": func([]string) int { return 1 }, "echo": echoMain, "cat": catMain, "mv": mvMain, "cp": cpMain,
		"dd": ddMain, "hostname": hostnameMain, "ls": lsMain, "mkdir": mkdirMain, "touch": touchMain, "rm": rmMain,
		"env": envMain, "pwd": pwdMain, "find": findMain,
	}
}

func main() {
	name := filepath.Base(os.Args[0])
	args := os.Args[1:]
	if name == "toolbox" {
		if len(args) == 0 {
			for n := range applets {
				fmt.Println(n)
			}
			return
		}
		name, args = args[0], args[1:]
	}
	a, ok := applets[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "toolbox: %s: not found\n", name)
		os.Exit(127)
	}
	os.Exit(a(args))
}

func fail(cmd string, err error) int {
	fmt.Fprintf(os.Stderr, "%s: %v\n", cmd, err)
	return 1
}

func sleepMain(args []string) int {
	if len(args) == 0 {
		return fail("sleep", fmt.Errorf("missing operand"))
	}
	var total time.Duration
	for _, a := range args {
		unit := time.Second
		switch {
		case strings.HasSuffix(a, "m"):
			unit, a = time.Minute, strings.TrimSuffix(a, "m")
		case strings.HasSuffix(a, "h"):
			unit, a = time.Hour, strings.TrimSuffix(a, "h")
		case strings.HasSuffix(a, "s"):
			a = strings.TrimSuffix(a, "s")
		}
		f, err := strconv.ParseFloat(a, 64)
		if err != nil {
			return fail("sleep", err)
		}
		total += time.Duration(f * float64(unit))
	}
	time.Sleep(total)
	return 0
}

func bracketMain(args []string) int {
	if len(args) == 0 || args[len(args)-1] != "]" {
		return fail("[", fmt.Errorf("missing ]"))
	}
	return testMain(args[:len(args)-1])
}

func testMain(args []string) int {
	b := func(v bool) int {
		if v {
			return 0
		}
		return 1
	}
	if len(args) > 0 && args[0] == "!" {
		return 1 - testMain(args[1:])
	}
	switch len(args) {
	case 0:
		return 1
	case 1:
		return b(args[0] != "")
	case 2:
		st, err := os.Stat(args[1])
		switch args[0] {
		case "-e":
			return b(err == nil)
		case "-f":
			return b(err == nil && st.Mode().IsRegular())
		case "-d":
			return b(err == nil && st.IsDir())
		case "-s":
			return b(err == nil && st.Size() > 0)
		case "-n":
			return b(args[1] != "")
		case "-z":
			return b(args[1] == "")
		}
	case 3:
		x, y := args[0], args[2]
		xi, e1 := strconv.Atoi(x)
		yi, e2 := strconv.Atoi(y)
		num := e1 == nil && e2 == nil
		switch args[1] {
		case "=", "==":
			return b(x == y)
		case "!=":
			return b(x != y)
		case "-eq":
			return b(num && xi == yi)
		case "-ne":
			return b(num && xi != yi)
		case "-lt":
			return b(num && xi < yi)
		case "-le":
			return b(num && xi <= yi)
		case "-gt":
			return b(num && xi > yi)
		case "-ge":
			return b(num && xi >= yi)
		}
	}
	fmt.Fprintf(os.Stderr, "test: unsupported expression %q\n", args)
	return 2
}

func echoMain(args []string) int {
	newline := true
	if len(args) > 0 && args[0] == "-n" {
		newline, args = false, args[1:]
	}
	fmt.Print(strings.Join(args, " "))
	if newline {
		fmt.Println()
	}
	return 0
}

func catMain(args []string) int {
	if len(args) == 0 {
		io.Copy(os.Stdout, os.Stdin)
		return 0
	}
	code := 0
	for _, f := range args {
		b, err := os.ReadFile(f)
		if err != nil {
			code = fail("cat", err)
			continue
		}
		os.Stdout.Write(b)
	}
	return code
}

// flags splits leading "-x" flags from operands.
func flags(args []string) (map[rune]bool, []string) {
	set := map[rune]bool{}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		if args[0] == "--" {
			return set, args[1:]
		}
		for _, r := range args[0][1:] {
			set[r] = true
		}
		args = args[1:]
	}
	return set, args
}

// target is where src goes: into dst when dst is a folder.
func target(src, dst string) string {
	if st, err := os.Stat(dst); err == nil && st.IsDir() {
		return filepath.Join(dst, filepath.Base(src))
	}
	return dst
}

func mvMain(args []string) int {
	f, ops := flags(args)
	if len(ops) < 2 {
		return fail("mv", fmt.Errorf("missing operand"))
	}
	dst := ops[len(ops)-1]
	code := 0
	for _, src := range ops[:len(ops)-1] {
		to := target(src, dst)
		if err := os.Rename(src, to); err != nil {
			code = fail("mv", err)
			continue
		}
		if f['v'] {
			fmt.Printf("'%s' -> '%s'\n", src, to)
		}
	}
	return code
}

func cpMain(args []string) int {
	_, ops := flags(args)
	if len(ops) != 2 {
		return fail("cp", fmt.Errorf("want: cp SRC DST"))
	}
	b, err := os.ReadFile(ops[0])
	if err != nil {
		return fail("cp", err)
	}
	if err := os.WriteFile(target(ops[0], ops[1]), b, 0o644); err != nil {
		return fail("cp", err)
	}
	return 0
}

func ddMain(args []string) int {
	in, out, bs, count, sync := "", "", int64(512), int64(-1), false
	for _, a := range args {
		k, v, _ := strings.Cut(a, "=")
		switch k {
		case "if":
			in = v
		case "of":
			out = v
		case "bs":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return fail("dd", err)
			}
			bs = n
		case "count":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return fail("dd", err)
			}
			count = n
		case "conv":
			sync = strings.Contains(v, "fsync")
		}
	}
	r := io.Reader(os.Stdin)
	if in != "" {
		f, err := os.Open(in)
		if err != nil {
			return fail("dd", err)
		}
		defer f.Close()
		r = f
	}
	w := os.Stdout
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return fail("dd", err)
		}
		defer f.Close()
		w = f
	}
	if count >= 0 {
		r = io.LimitReader(r, bs*count)
	}
	n, err := io.Copy(w, r)
	if err != nil {
		return fail("dd", err)
	}
	if sync {
		w.Sync()
	}
	fmt.Fprintf(os.Stderr, "%d bytes copied\n", n)
	return 0
}

func hostnameMain([]string) int {
	h, err := os.Hostname()
	if err != nil {
		return fail("hostname", err)
	}
	fmt.Println(h)
	return 0
}

func lsMain(args []string) int {
	f, ops := flags(args)
	if len(ops) == 0 {
		ops = []string{"."}
	}
	code := 0
	for _, d := range ops {
		st, err := os.Stat(d)
		if err != nil {
			code = fail("ls", err)
			continue
		}
		if !st.IsDir() || f['d'] {
			fmt.Println(d)
			continue
		}
		es, _ := os.ReadDir(d)
		for _, e := range es {
			fmt.Println(e.Name())
		}
	}
	return code
}

func mkdirMain(args []string) int {
	f, ops := flags(args)
	for _, d := range ops {
		var err error
		if f['p'] {
			err = os.MkdirAll(d, 0o755)
		} else {
			err = os.Mkdir(d, 0o755)
		}
		if err != nil {
			return fail("mkdir", err)
		}
	}
	return 0
}

func touchMain(args []string) int {
	_, ops := flags(args)
	for _, p := range ops {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fail("touch", err)
		}
		f.Close()
		now := time.Now()
		os.Chtimes(p, now, now)
	}
	return 0
}

func rmMain(args []string) int {
	f, ops := flags(args)
	code := 0
	for _, p := range ops {
		var err error
		if f['r'] || f['R'] {
			err = os.RemoveAll(p)
		} else {
			err = os.Remove(p)
		}
		if err != nil && !(f['f'] && os.IsNotExist(err)) {
			code = fail("rm", err)
		}
	}
	return code
}

func envMain([]string) int {
	for _, e := range os.Environ() {
		fmt.Println(e)
	}
	return 0
}

func pwdMain([]string) int {
	d, _ := os.Getwd()
	fmt.Println(d)
	return 0
}

// ---- sh: mvdan.cc/sh's POSIX interpreter; commands it does not build in run from PATH (these applets) ----

func shMain(args []string) int {
	var params []string
	script, haveScript := "", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-c" || (strings.HasPrefix(a, "-") && len(a) > 1 && strings.ContainsRune(a, 'c')) {
			if rest := strings.ReplaceAll(strings.TrimPrefix(a, "-"), "c", ""); rest != "" {
				params = append(params, "-"+rest)
			}
			if i+1 < len(args) {
				script, haveScript = args[i+1], true
			}
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			params = append(params, a)
			continue
		}
		b, err := os.ReadFile(a)
		if err != nil {
			return fail("sh", err)
		}
		script, haveScript = string(b), true
		break
	}
	runner, err := interp.New(
		interp.StdIO(os.Stdin, os.Stdout, os.Stderr),
		interp.Env(expand.ListEnviron(os.Environ()...)),
		interp.Params(params...),
	)
	if err != nil {
		return fail("sh", err)
	}
	ctx := context.Background()
	status := func(err error) int {
		var es interp.ExitStatus
		if errors.As(err, &es) {
			return int(es)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "sh:", err)
			return 2
		}
		return 0
	}
	parser := syntax.NewParser()
	if haveScript {
		file, err := parser.Parse(strings.NewReader(script), "sh")
		if err != nil {
			return fail("sh", err)
		}
		return status(runner.Run(ctx, file))
	}
	// interactive (kubectl exec -it … sh) or a piped script: statement by statement
	code := 0
	err = parser.Interactive(os.Stdin, func(stmts []*syntax.Stmt) bool {
		for _, st := range stmts {
			code = status(runner.Run(ctx, st))
			if runner.Exited() {
				return false
			}
		}
		if isTerminal() {
			fmt.Fprint(os.Stderr, "# ")
		}
		return true
	})
	if err != nil {
		return fail("sh", err)
	}
	return code
}

func isTerminal() bool {
	st, err := os.Stdin.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func findMain(args []string) int {
	_, ops := flags(args)
	if len(ops) == 0 {
		ops = []string{"."}
	}
	code := 0
	for _, root := range ops {
		err := filepath.WalkDir(root, func(p string, _ os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			fmt.Println(p)
			return nil
		})
		if err != nil {
			code = fail("find", err)
		}
	}
	return code
}
