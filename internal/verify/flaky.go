package verify

import "context"

// rerunFailures re-runs the failing tests of res (the narrowest command
// Targeted finds, else cmd itself) up to FlakyReruns times. A failure that
// passes on a re-run moves to res.Flaky; when none is left, res passes.
// Only failures that name a test can be flaky: a build failure, a crash
// outside any test or a timeout is never retried.
func (r *runner) rerunFailures(ctx context.Context, cmd string, res *CommandResult) error {
	if res.TimedOut || len(res.Failures) == 0 {
		return nil
	}
	for _, f := range res.Failures {
		if f.Test == "" {
			return nil
		}
	}
	argv, err := Split(cmd)
	if err != nil {
		return nil
	}
	if target, ok := Targeted(cmd, res.Failures); ok {
		if t, err := ParseCommand(target, r.opts.Allow); err == nil {
			argv = t
		}
	}
	failing := map[string]bool{}
	for _, f := range res.Failures {
		failing[f.ID()] = true
	}
	// go test and cargo test name the tests that passed: only that counts,
	// since a narrowed command that selects nothing also exits 0. Other
	// runners are trusted when the re-run passes, or fails on other tests
	// only.
	named := toolFor(argv) == toolGoTest || toolFor(argv) == toolCargo
	for i := 0; i < r.opts.FlakyReruns && len(failing) > 0; i++ {
		again, err := r.runOne(ctx, argv, true)
		if err != nil {
			return err
		}
		if again.TimedOut {
			continue
		}
		failedAgain := map[string]bool{}
		attributed := true
		for _, f := range again.Failures {
			failedAgain[f.ID()] = true
			attributed = attributed && f.Test != ""
		}
		for id := range failing {
			switch {
			case named && again.passing[id]:
			case !named && (again.Passed || attributed && !failedAgain[id]):
			default:
				continue
			}
			delete(failing, id)
		}
	}
	var still []Failure
	for _, f := range res.Failures {
		if failing[f.ID()] {
			still = append(still, f)
		} else {
			res.Flaky = append(res.Flaky, f)
		}
	}
	res.Failures = still
	if res.Failures == nil {
		res.Failures = []Failure{}
	}
	res.Passed = len(still) == 0
	return nil
}
