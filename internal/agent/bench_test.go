package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// BenchmarkOverhead measures agentfix's own time in a whole run: the total
// wall time minus the time spent waiting for the model and for the verify
// commands. The model is the fake server answering at once (a wrong fix,
// then the right one), so everything left is agentfix: git, the context
// pack, the patch engine, prompts, the session record.
//
//	go test ./internal/agent -run '^$' -bench Overhead -benchtime 5x
func BenchmarkOverhead(b *testing.B) {
	var overheadMS, totalMS, modelMS, verifyMS int64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		h := newHarness(b, "sum")
		h.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(reply(b, "wrong.diff")), ollamafake.Text(reply(b, "fix.diff")))
		f, err := os.Create(filepath.Join(b.TempDir(), "session.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		job := h.job(failingTask)
		job.Record = session.NewRecorder(f)
		b.StartTimer()
		res, err := Run(context.Background(), job)
		b.StopTimer()
		f.Close()
		if err != nil || res.Result != Fixed {
			b.Fatalf("run: %v %+v", err, res)
		}
		overheadMS += res.Timings.OverheadMS()
		totalMS += res.Timings.TotalMS
		modelMS += res.Timings.ModelMS
		verifyMS += res.Timings.VerifyMS
	}
	n := float64(b.N)
	b.ReportMetric(float64(overheadMS)/n, "overhead-ms/op")
	b.ReportMetric(float64(modelMS)/n, "model-ms/op")
	b.ReportMetric(float64(verifyMS)/n, "verify-ms/op")
	b.ReportMetric(float64(totalMS)/n, "total-ms/op")
	b.ReportMetric(100*float64(overheadMS)/float64(max(totalMS, 1)), "overhead-%")
}
