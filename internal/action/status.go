package action

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/agentfix/agentfix/internal/report"
	"github.com/agentfix/agentfix/internal/untrusted"
)

// status is the one status comment agentfix keeps on the job's issue or
// PR, edited in place. One comment rather than one per trigger keeps the
// thread quiet and the current state in one place; so that a new trigger
// never erases an earlier run's outcome (a PR it opened, why it stopped),
// the comment carries the earlier runs' outcomes with their links, read
// from the comment before the first edit of a run.
type status struct {
	a      *run
	mu     sync.Mutex
	id     int64  // the comment once found or created
	loaded bool   // the existing comment was looked for
	last   string // the text it has now
	// foreign are the authors of comments that carry the status marker
	// but are not agentfix's: left alone, and noted in the final text.
	foreign []string
	// quiet: the job keeps no status comment (a revision answers with one
	// reply once it is done).
	quiet bool
}

// finalPostTimeout bounds the last edit of a run that is already
// cancelled or out of time: it must still say how the run ended.
const finalPostTimeout = 30 * time.Second

// render is the comment's text at stage (round is the current round for
// report.StageRound).
func (s *status) render(stage report.Stage, round int, waiting string) string {
	r := *s.a.rep
	if stage == report.StageRound {
		r.Rounds = round
	}
	r.Waiting = waiting
	return report.StatusComment(&r, stage)
}

// post edits the comment to stage, now.
func (s *status) post(ctx context.Context, stage report.Stage) {
	s.send(ctx, stage, s.a.rep.Rounds, "")
}

// done edits the comment to the run's final state, also when ctx is
// cancelled (SIGTERM, the workflow cancelled, the wall time used up).
func (s *status) done(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalPostTimeout)
	defer cancel()
	s.mu.Lock()
	for _, who := range s.foreign {
		s.a.rep.Notes = append(s.a.rep.Notes, fmt.Sprintf("A comment by %s carries agentfix's status marker, but agentfix did not write it; it was left alone.", untrusted.Code(who)))
	}
	s.foreign = nil
	s.mu.Unlock()
	s.send(ctx, report.StageDone, s.a.rep.Rounds, "")
}

// send edits the comment to stage (waiting: what the model server is
// doing, or ""). A failure to post is logged, not fatal:
// the work matters more than the comment about it.
func (s *status) send(ctx context.Context, stage report.Stage, round int, waiting string) {
	a := s.a
	s.mu.Lock()
	defer s.mu.Unlock()
	if a.job == nil || a.job.Number == 0 || a.dryRun || a.pub == nil || s.quiet {
		return
	}
	if !s.loaded {
		// The comment an earlier run left: its outcome joins the history.
		id, prev, foreign, err := a.pub.FindComment(ctx, a.job.Number, report.StatusMarker)
		if err != nil {
			if ctx.Err() == nil {
				a.logf("status comment: %v", err)
			}
			return
		}
		s.id, s.loaded = id, true
		s.foreign = append(s.foreign, foreign...)
		a.rep.History = report.EarlierRuns(prev)
	}
	body := s.render(stage, round, waiting)
	if s.id != 0 && body == s.last {
		return
	}
	id, foreign, err := a.pub.StatusComment(ctx, a.job.Number, s.id, report.StatusMarker, body)
	s.foreign = append(s.foreign, foreign...)
	if err != nil {
		if ctx.Err() == nil {
			a.logf("status comment: %v", err)
		}
		return
	}
	s.id, s.last = id, body
}

// poster posts the status comment's progress from its own goroutine, so
// that a slow API (a rate limit waited out) never holds up the loop. It
// keeps only the latest stage: a stage that was overtaken is never posted.
// Its posts are bounded by its context, the run's wall time.
type poster struct {
	ctx    context.Context
	cancel context.CancelFunc
	s      *status
	mu     sync.Mutex
	next   *pending
	closed bool
	wake   chan struct{}
	done   chan struct{}
}

func newPoster(ctx context.Context, cancel context.CancelFunc, s *status) *poster {
	p := &poster{ctx: ctx, cancel: cancel, s: s, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go p.loop()
	return p
}

// pending is a stage waiting to be posted.
type pending struct {
	stage   report.Stage
	round   int
	waiting string
}

// offer replaces the stage waiting to be posted; it never blocks.
func (p *poster) offer(stage report.Stage, round int, waiting string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.next = &pending{stage, round, waiting}
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *poster) loop() {
	defer close(p.done)
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-p.wake:
		}
		p.mu.Lock()
		next, closed := p.next, p.closed
		p.next = nil
		p.mu.Unlock()
		if next != nil && !closed {
			p.s.send(p.ctx, next.stage, next.round, next.waiting)
		}
		if closed {
			return
		}
	}
}

// stop ends the goroutine and waits for it. A post in flight is let
// finish rather than cancelled: GitHub may still apply a cancelled edit
// after the final one, and the comment would go back to "working".
func (p *poster) stop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
	<-p.done
	p.cancel()
}

// lockedWriter serialises writes from the run's goroutines to one writer.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
