// Package digest fingerprints what a pack shows, so that a benchmark can
// prove a change to the context engine packs the same as before.
package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/agentfix/agentfix/internal/repoctx"
)

// Pack is the SHA-256 of everything p shows and says: its text, and its
// files, chunks, scores and token counts (not the time it took).
func Pack(p *repoctx.Pack) string {
	h := sha256.New()
	h.Write([]byte(p.Text()))
	files, _ := json.Marshal(p.Files)
	h.Write(files)
	fmt.Fprintf(h, "\n%d %d", p.TokensUsed, p.RepoFiles)
	return hex.EncodeToString(h.Sum(nil))
}
