package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"time"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/ghclient"
	"github.com/agentfix/agentfix/internal/gitrun"
	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/trust"
	"github.com/agentfix/agentfix/internal/verify"
	"github.com/agentfix/agentfix/internal/workspace"
)

// MinContext is the smallest context window agentfix can work in: the
// system prompt, a repo map, the task, some code and a diff reply.
const MinContext = 8192

// Options are the doctor's inputs, injected so tests control them.
type Options struct {
	Repo   string
	Getenv func(string) string
	Flags  config.Flags
	// LookPath finds verify tools; exec.LookPath if nil.
	LookPath func(string) (string, error)
	// Ollama tunes the model-server client (tests make retries instant).
	Ollama llm.Options
	// Limits says how the verify commands would be limited here;
	// verify.CheckLimits if nil.
	Limits func(verify.Sandbox) verify.Limits
	// Out, if set, receives each check as it is made (Report.Print would
	// print them all at the end); the caller prints the summary.
	Out io.Writer
}

type doctor struct {
	opts Options
	r    *Report
	root string
	cfg  *config.Config
}

func (d *doctor) git(ctx context.Context) {
	out, err := gitrun.Runner{}.Run(ctx, "--version")
	if err != nil {
		d.r.fail("git", "git is not on PATH", "install git (apt-get install git) and make sure PATH includes it")
		d.r.skip("repository", "git is missing")
		return
	}
	d.r.pass("git", "%s", strings.TrimSpace(out))
	repo, err := workspace.Open(ctx, d.opts.Repo)
	if err != nil {
		d.r.fail("repository", err.Error(), "run agentfix inside a git checkout, or pass --repo DIR")
		return
	}
	d.root = repo.Root
	if err := repo.CheckClean(ctx); err != nil {
		var dirty *workspace.DirtyError
		if errors.As(err, &dirty) {
			d.r.fail("repository", fmt.Sprintf("%s has uncommitted changes", repo.Root), "commit or stash them; agentfix works on a clean tree so it can always put it back")
			return
		}
		d.r.fail("repository", err.Error(), "check that git works in this directory")
		return
	}
	d.r.pass("repository", "%s, clean", repo.Root)
}

func (d *doctor) repoDir() string {
	if d.root != "" {
		return d.root
	}
	return d.opts.Repo
}

func (d *doctor) config() {
	cfg, src, err := config.Load(config.LoadOptions{RepoDir: d.repoDir(), Getenv: d.opts.Getenv, Flags: d.opts.Flags})
	if err != nil {
		d.r.fail("config", err.Error(), "correct the values named above; `agentfix config validate --show` prints the effective config")
		return
	}
	d.cfg = cfg
	where := "built-in defaults"
	if s := src["model"]; s != "default" {
		where = "model from " + s
	}
	d.r.pass("config", "valid (%s)", where)
}

func (d *doctor) ollama(ctx context.Context) {
	if d.cfg == nil {
		d.r.skip("ollama", "the config is invalid")
		d.r.skip("model", "the config is invalid")
		return
	}
	opts := d.opts.Ollama
	if opts.Timeout == 0 {
		opts.Timeout = 30 * time.Second
	}
	c, err := llm.New(d.cfg.Ollama.Host, opts)
	if err != nil {
		d.r.fail("ollama", err.Error(), "set ollama.host (or OLLAMA_HOST) to the server's URL")
		d.r.skip("model", "no Ollama server")
		return
	}
	v, err := c.Version(ctx)
	if err != nil {
		d.r.fail("ollama", err.Error(), "start the server (`ollama serve`) on that host, or point ollama.host / OLLAMA_HOST / the ollama-host input at it")
		d.r.skip("model", "no Ollama server")
		return
	}
	d.r.pass("ollama", "Ollama %s at %s", v, c.Host())
	d.model(ctx, c, "model", d.cfg.Model)
	if d.cfg.Reviewer.Model != "" {
		d.model(ctx, c, "reviewer model", d.cfg.Reviewer.Model)
	}
}

// model checks the model is on the server and that the context window
// agentfix will ask for fits both the model and agentfix's needs.
func (d *doctor) model(ctx context.Context, c *llm.Client, name, model string) {
	info, err := c.ModelInfo(ctx, model)
	if err != nil {
		var missing *llm.ModelMissingError
		if errors.As(err, &missing) {
			d.r.fail(name, err.Error(), fmt.Sprintf("run `ollama pull %s` on the server, or set model to one `ollama list` shows", model))
			return
		}
		d.r.fail(name, err.Error(), "check the server's log")
		return
	}
	numCtx := d.cfg.Ollama.NumCtx
	switch {
	case info.ContextLength > 0 && numCtx > info.ContextLength:
		d.r.fail(name, fmt.Sprintf("%s: ollama.num_ctx %d is more than the model's context length %d", model, numCtx, info.ContextLength),
			fmt.Sprintf("set ollama.num_ctx to at most %d, or 0 to let agentfix choose", info.ContextLength))
	case numCtx == 0 && info.ContextLength > 0 && info.ContextLength < MinContext:
		d.r.fail(name, fmt.Sprintf("%s: context length %d is below the %d tokens agentfix needs", model, info.ContextLength, MinContext),
			"use a model with a context of at least 8k tokens (e.g. qwen2.5-coder:7b or larger)")
	case numCtx > 0 && numCtx < MinContext:
		d.r.fail(name, fmt.Sprintf("%s: ollama.num_ctx %d is below the %d tokens agentfix needs", model, numCtx, MinContext),
			fmt.Sprintf("raise ollama.num_ctx to at least %d, or 0 to let agentfix choose", MinContext))
	default:
		window := numCtx
		if window == 0 {
			window = info.ContextLength
		}
		digest := info.Digest
		if len(digest) > 12 {
			digest = digest[:12]
		}
		sized := "windows sized by the token count for any model (its tokenizer was not measured)"
		if llm.TokenizerMeasured(info.Tokenizer) {
			sized = fmt.Sprintf("windows sized for its tokenizer (%s)", info.Tokenizer)
		}
		d.r.pass(name, "%s present (digest %s), context length %d; agentfix will use up to %d tokens, %s", model, digest, info.ContextLength, window, sized)
	}
}

func (d *doctor) verify() {
	cfg, src, err := config.Load(config.LoadOptions{RepoDir: d.repoDir(), Getenv: d.opts.Getenv, Flags: d.opts.Flags, NeedVerify: true})
	if err != nil {
		if d.cfg != nil { // the config itself is fine: only detection failed
			d.r.fail("verify commands", err.Error(), "set verify.commands in "+config.DefaultPath+" (or the test-command input)")
		} else {
			d.r.skip("verify commands", "the config is invalid")
		}
		return
	}
	lookPath := d.opts.LookPath
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	var missing []string
	for _, c := range cfg.Verify.Commands {
		argv, err := verify.ParseCommand(c, cfg.Verify.Allow)
		if err != nil { // config.Load already refused these; kept for safety
			d.r.fail("verify commands", err.Error(), "use an allowlisted command or add its prefix to verify.allow")
			return
		}
		if _, err := lookPath(argv[0]); err != nil {
			missing = append(missing, argv[0])
		}
	}
	if len(missing) > 0 {
		d.r.fail("verify commands", fmt.Sprintf("%s not found on PATH", strings.Join(missing, ", ")),
			"install the toolchain on the runner (e.g. actions/setup-go before agentfix in the workflow)")
		return
	}
	d.r.pass("verify commands", "%s (%s), allowlisted", strings.Join(cfg.Verify.Commands, "; "), src["verify.commands"])
}

// sandbox says whether bubblewrap can contain the verify commands here,
// and if not, why and what fixes it.
func (d *doctor) sandbox() {
	mode := config.Default().Verify.Sandbox
	if d.cfg != nil {
		mode = d.cfg.Verify.Sandbox
	}
	if mode == config.SandboxOff {
		d.r.skip("sandbox", "verify.sandbox is off: the verify commands run the code the model wrote without a sandbox")
		return
	}
	if err := verify.CheckSandbox(d.opts.Getenv("PATH")); err != nil {
		var u *verify.UnavailableError
		if errors.As(err, &u) {
			fix := u.Fix
			if mode == config.SandboxAuto {
				fix += " (until then, verify.sandbox: auto runs the commands unsandboxed and says so)"
			}
			d.r.fail("sandbox", u.Reason, fix)
			return
		}
		d.r.fail("sandbox", err.Error(), "")
		return
	}
	d.r.pass("sandbox", "bubblewrap works: verify commands run without network, with a read-only system and .git, and a throwaway home")
	d.limits()
}

// limits says how the memory and processes of a verify command are
// limited here (cgroup v2, cgroup v1 or rlimits), and fails when no
// process limit binds it: a fork bomb in a test would run until the
// timeout.
func (d *doctor) limits() {
	check := d.opts.Limits
	if check == nil {
		check = verify.CheckLimits
	}
	sb := verify.Sandbox{}
	if d.cfg != nil {
		sb.MaxMemoryMB, sb.MaxProcesses = d.cfg.Verify.MaxMemoryMB, d.cfg.Verify.MaxProcesses
	}
	l := check(sb)
	if l.Unbound != "" {
		d.r.fail("limits", "NO process limit for the verify commands: "+l.Unbound, l.Fix)
		return
	}
	d.r.pass("limits", "%s", l.Line)
}

// supportedEvents are the events agentfix acts on.
var supportedEvents = map[string]bool{"issues": true, "issue_comment": true, "schedule": true, "workflow_dispatch": true}

func (d *doctor) actions(ctx context.Context) {
	getenv := d.opts.Getenv
	if ev := getenv("GITHUB_EVENT_NAME"); supportedEvents[ev] {
		d.r.pass("event", "%s is supported", ev)
	} else {
		d.r.fail("event", fmt.Sprintf("event %q is not one agentfix acts on", ev),
			"trigger the workflow on issues (labeled), issue_comment (created), schedule or workflow_dispatch only")
	}

	if d.root == "" {
		d.r.skip("persist-credentials", "no git checkout")
	} else if err := trust.CheckNoPersistedToken(ctx, d.root); err != nil {
		d.r.fail("persist-credentials", err.Error(), "add `persist-credentials: false` to the actions/checkout step")
	} else {
		d.r.pass("persist-credentials", "off: no token stored in .git/config")
	}

	token := config.Input(getenv, "github-token")
	if token == "" {
		token = getenv("GITHUB_TOKEN")
	}
	if token == "" {
		d.r.fail("token", "no GitHub token: the github-token input is empty", "pass `github-token: ${{ github.token }}` (the default) or a token with contents, pull-requests and issues write access")
		d.r.skip("permissions", "no token")
		return
	}
	d.r.pass("token", "present")
	d.permissions(ctx, token)
}

// permissions asks the API what the token may do with the repository.
func (d *doctor) permissions(ctx context.Context, token string) {
	getenv := d.opts.Getenv
	owner, name, ok := strings.Cut(getenv("GITHUB_REPOSITORY"), "/")
	if !ok {
		d.r.fail("permissions", "GITHUB_REPOSITORY is not set to owner/name", "run inside GitHub Actions, which sets it")
		return
	}
	o := ghclient.FromEnv(getenv)
	o.Token = token
	if o.APIURL == "" {
		o.APIURL = "https://api.github.com"
	}
	gh, err := ghclient.New(o)
	if err != nil {
		d.r.fail("permissions", err.Error(), "leave GITHUB_API_URL as GitHub Actions sets it")
		return
	}
	repo, resp, err := gh.Repositories.Get(ctx, owner, name)
	if err != nil {
		fix := "check the token can read the repository"
		if resp != nil && resp.StatusCode == http.StatusUnauthorized {
			fix = "the token was rejected: pass a valid github-token"
		}
		d.r.fail("permissions", fmt.Sprintf("GET /repos/%s/%s: %v", owner, name, err), fix)
		return
	}
	p := repo.GetPermissions()
	const need = "give the workflow `permissions: {contents: write, pull-requests: write, issues: write}`"
	switch {
	case p == nil:
		// Installation tokens (GITHUB_TOKEN) are not told their permissions.
		d.r.pass("permissions", "token can read %s/%s; make sure the workflow grants contents, pull-requests and issues write", owner, name)
	case !p["push"]:
		d.r.fail("permissions", fmt.Sprintf("the token cannot push to %s/%s", owner, name), need)
	default:
		d.r.pass("permissions", "token can push to %s/%s", owner, name)
	}
}
